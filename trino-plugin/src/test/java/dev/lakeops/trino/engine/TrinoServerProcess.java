package dev.lakeops.trino.engine;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A real Trino server in its own JVM: {@code lib} is the engine (this test's classpath without any
 * LakeOps classes), {@code plugin/lakeops} is a copy of the packaged plugin directory (as the
 * install section of docs/trino.md says), loaded by Trino's plugin class loader exactly as in a
 * server installation, and the JVM is started with the options of {@code etc/jvm.config} and
 * nothing else, as Trino's launcher does.
 */
final class TrinoServerProcess implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofMinutes(6);

  private final Process process;
  private final URI uri;
  private final Path log;

  private TrinoServerProcess(Process process, URI uri, Path log) {
    this.process = process;
    this.uri = uri;
    this.log = log;
  }

  /**
   * Writes {@code etc/} under {@code home}: {@code jvmConfig} as {@code etc/jvm.config}, one file
   * per entry of {@code catalogs} in {@code etc/catalog/}, {@code eventListener} as {@code
   * etc/event-listener.properties} and {@code accessControl} as {@code
   * etc/access-control.properties}; installs the plugin as docs/trino.md says (a release zip
   * unzipped into {@code plugin/}, or a plugin directory copied to {@code plugin/lakeops}) and
   * starts the server.
   */
  static TrinoServerProcess start(
      Path home,
      Path plugin,
      List<String> jvmConfig,
      Map<String, Map<String, String>> catalogs,
      Map<String, String> eventListener,
      Map<String, String> accessControl)
      throws IOException, InterruptedException {
    requireNonNull(plugin, "plugin is null");
    boolean zip = plugin.getFileName().toString().endsWith(".zip");
    if (zip
        ? !Files.isRegularFile(plugin)
        : !Files.isRegularFile(plugin.resolve("lakeops-trino-plugin-0.1.0-SNAPSHOT.jar"))) {
      throw new IllegalStateException(
          "No packaged plugin at " + plugin + ": run mvn package (or verify) first");
    }
    int port = freePort();
    Path etc = Files.createDirectories(home.resolve("etc"));
    Path catalogDirectory = Files.createDirectories(etc.resolve("catalog"));
    Path plugins = Files.createDirectories(home.resolve("plugin"));
    if (zip) {
      unzip(plugin, plugins);
    } else {
      copyDirectory(plugin, Files.createDirectories(plugins.resolve("lakeops")));
    }
    Files.write(etc.resolve("jvm.config"), jvmConfig);
    for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
      write(catalogDirectory.resolve(catalog.getKey() + ".properties"), catalog.getValue());
    }
    write(etc.resolve("event-listener.properties"), eventListener);
    write(etc.resolve("access-control.properties"), accessControl);
    write(
        etc.resolve("config.properties"),
        Map.ofEntries(
            Map.entry("node.environment", "lakeops_test"),
            Map.entry("node.id", "lakeops-test-coordinator"),
            Map.entry("coordinator", "true"),
            Map.entry("node-scheduler.include-coordinator", "true"),
            Map.entry("http-server.http.port", String.valueOf(port)),
            Map.entry("discovery.uri", "http://127.0.0.1:" + port),
            Map.entry("query.max-memory", "256MB"),
            Map.entry("query.max-memory-per-node", "256MB"),
            Map.entry("plugin.dir", plugins.toString()),
            Map.entry("catalog.config-dir", catalogDirectory.toString()),
            Map.entry(
                "event-listener.config-files", etc.resolve("event-listener.properties").toString()),
            Map.entry(
                "access-control.config-files",
                etc.resolve("access-control.properties").toString())));
    Path log = home.resolve("server.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions(etc.resolve("jvm.config")));
    command.addAll(
        List.of(
            "-Dconfig=" + etc.resolve("config.properties"),
            "-cp",
            engineClassPath(),
            TrinoServerMain.class.getName()));
    Process process =
        new ProcessBuilder(command)
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    // A test JVM that exits without close() (timeout, interrupted build) still stops the server
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "stop-trino-server"));
    TrinoServerProcess server =
        new TrinoServerProcess(process, URI.create("http://127.0.0.1:" + port), log);
    try {
      server.awaitStarted();
      return server;
    } catch (IOException | InterruptedException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  URI uri() {
    return uri;
  }

  /** The server's output so far: Trino's log lines and anything the JVM printed. */
  String log() throws IOException {
    return Files.readString(log);
  }

  /** The lines of a jvm.config file that are options: not blank, not a {@code #} comment. */
  static List<String> jvmOptions(Path jvmConfig) throws IOException {
    return Files.readAllLines(jvmConfig).stream()
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
        .toList();
  }

  /**
   * {@code unzip archive -d directory}: files and directories only, each inside {@code directory}.
   */
  static void unzip(Path archive, Path directory) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(archive))) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        Path target = directory.resolve(entry.getName()).normalize();
        if (!target.startsWith(directory)) {
          throw new IOException(archive + ": entry outside the directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(in, target);
        }
      }
    }
  }

  private static void copyDirectory(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.copy(file, to.resolve(file.getFileName().toString()));
      }
    }
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private void awaitStarted() throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Trino server exited with " + process.exitValue() + ":\n" + logTail());
      }
      try {
        HttpResponse<String> info =
            client.send(
                HttpRequest.newBuilder(uri.resolve("/v1/info"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (info.statusCode() == 200 && info.body().contains("\"starting\":false")) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "Trino server did not start within " + START_TIMEOUT + ":\n" + logTail());
  }

  /**
   * The test's classpath without LakeOps: no module output directory but test-classes, no lakeops-*
   * jar.
   */
  private static String engineClassPath() {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Arrays.stream(classPath.split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .filter(
            entry -> {
              Path path = Path.of(entry);
              String name = path.getFileName().toString();
              if (Files.isDirectory(path)) {
                return name.equals("test-classes")
                    && path.startsWith(Path.of(System.getProperty("user.dir")));
              }
              return !name.startsWith("lakeops-");
            })
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static void write(Path file, Map<String, String> values) throws IOException {
    Properties properties = new Properties();
    properties.putAll(values);
    try (Writer writer = Files.newBufferedWriter(file)) {
      properties.store(writer, null);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
