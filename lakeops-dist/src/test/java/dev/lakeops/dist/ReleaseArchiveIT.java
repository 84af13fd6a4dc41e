package dev.lakeops.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it: unpacked into an empty directory and run with an empty
 * {@code HOME}, a {@code PATH} that holds only the shell tools the launcher uses (no Maven, no
 * {@code java}: the runtime comes from {@code JAVA_HOME}), no other environment, and nothing of the
 * source tree; every command but {@code serve --http} in a network namespace without any network
 * (where the machine allows it). The commands are the ones the README's "Install a release" shows;
 * the Dockerfile's HEALTHCHECK command runs against the running {@code serve --http} too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReleaseArchiveIT {
  private static final long MAX_ARCHIVE_BYTES = 150L * 1024 * 1024;
  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(3);

  /** What bin/lakeops runs: bash and the coreutils it calls, nothing else. */
  private static final List<String> LAUNCHER_TOOLS =
      List.of(
          "bash", "basename", "cksum", "cut", "dirname", "grep", "mkdir", "mv", "readlink", "rm");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code unshare --net}: every command but {@code serve --http} runs with no network at all (not
   * even loopback), where the machine allows it (root, util-linux); elsewhere without it.
   */
  private static final List<String> NETWORK_ISOLATION = networkIsolation();

  @TempDir static Path root;
  private static Path install;
  private static Path home;
  private static Path path;
  private static Path work;

  @BeforeAll
  static void unpack() throws Exception {
    Path archive = Path.of(System.getProperty("lakeops.dist.archive"));
    assertThat(archive).isRegularFile();
    Path unpacked = Files.createDirectory(root.resolve("opt"));
    Process tar =
        new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString())
            .inheritIO()
            .start();
    assertThat(tar.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(tar.exitValue()).isZero();
    try (Stream<Path> top = Files.list(unpacked)) {
      assertThat(top.map(Path::getFileName).map(Path::toString))
          .containsExactly(System.getProperty("lakeops.dist.name"));
    }
    install = unpacked.resolve(System.getProperty("lakeops.dist.name"));
    home = Files.createDirectory(root.resolve("home"));
    work = Files.createDirectory(root.resolve("work"));
    path = Files.createDirectory(root.resolve("path"));
    for (String tool : LAUNCHER_TOOLS) {
      Path found =
          Stream.of("/usr/bin", "/bin")
              .map(directory -> Path.of(directory, tool))
              .filter(Files::isExecutable)
              .findFirst()
              .orElseThrow(() -> new AssertionError("no " + tool + " in /usr/bin or /bin"));
      Files.createSymbolicLink(path.resolve(tool), found);
    }
  }

  private static List<String> networkIsolation() {
    List<String> unshare = List.of("/usr/bin/unshare", "--net");
    try {
      Process probe =
          new ProcessBuilder(Stream.concat(unshare.stream(), Stream.of("/bin/true")).toList())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0) {
        return unshare;
      }
    } catch (IOException e) {
      // no unshare here: run with the network
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.out.println(
        "ReleaseArchiveIT: no network namespace here; commands run with the network");
    return List.of();
  }

  @Test
  @Order(1)
  void archiveHoldsTheLauncherLibrariesConfigurationServiceFilesAndNotices() throws Exception {
    assertThat(Files.size(Path.of(System.getProperty("lakeops.dist.archive"))))
        .isLessThan(MAX_ARCHIVE_BYTES);
    assertThat(install.resolve("bin/lakeops")).isExecutable();
    assertThat(install.resolve("conf/jvm.config")).content().contains("-XX:G1HeapRegionSize=4m");
    assertThat(install.resolve("conf/catalog.properties")).content().contains("type=rest");
    assertThat(install.resolve("LICENSE")).content().contains("Apache License");
    assertThat(install.resolve("NOTICE"))
        .content()
        .contains("LakeOps")
        .contains("iceberg-core-" + System.getProperty("iceberg.version") + ".jar");
    assertThat(install.resolve("THIRD-PARTY.txt"))
        .content()
        .contains("org.apache.iceberg:iceberg-core:" + System.getProperty("iceberg.version"))
        .contains("org.xerial:sqlite-jdbc:")
        .doesNotContain("license: not declared");
    assertThat(install.resolve("systemd/lakeops.service"))
        .content()
        .contains("ExecStart=/opt/lakeops/bin/lakeops serve")
        .contains("WantedBy=multi-user.target");
    assertThat(install.resolve("Dockerfile"))
        .content()
        .contains("ENTRYPOINT [\"/opt/lakeops/bin/lakeops\", \"serve\"]")
        .contains("HEALTHCHECK")
        .contains("/health");

    try (Stream<Path> jars = Files.list(install.resolve("lib"))) {
      List<String> names = jars.map(jar -> jar.getFileName().toString()).sorted().toList();
      assertThat(names)
          .contains(
              "lakeops-cli-" + System.getProperty("lakeops.version") + ".jar",
              "lakeops-server-" + System.getProperty("lakeops.version") + ".jar")
          .allMatch(name -> name.endsWith(".jar"));
      // the jars bin/lakeops runs on in a checkout, when the reactor built them
      Path cliLib = Path.of(System.getProperty("lakeops.cli.lib"));
      if (Files.isDirectory(cliLib)) {
        try (Stream<Path> checkout = Files.list(cliLib)) {
          assertThat(names)
              .containsExactlyInAnyOrderElementsOf(
                  Stream.concat(
                          checkout.map(jar -> jar.getFileName().toString()),
                          Stream.of(
                              "lakeops-cli-" + System.getProperty("lakeops.version") + ".jar"))
                      .toList());
        }
      }
    }
  }

  @Test
  @Order(2)
  void versionNamesLakeOpsAndTheLibrariesItCarriesAndTheFirstRunRecordsTheClassArchive()
      throws Exception {
    CommandRun first = lakeops("--version");

    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.stdout().lines().toList())
        .startsWith(
            "lakeops " + System.getProperty("lakeops.version"),
            "iceberg " + System.getProperty("iceberg.version"),
            "parquet " + System.getProperty("parquet.version"),
            "arrow " + System.getProperty("arrow.version"));
    assertThat(first.stderr())
        .contains("recording the class-data sharing archive")
        .doesNotContain("could not record");
    try (Stream<Path> state = Files.list(install.resolve("var"))) {
      assertThat(state.map(file -> file.getFileName().toString()))
          .anyMatch(name -> name.matches("lakeops-classes-\\d+\\.jsa"));
    }

    CommandRun second = lakeops("--version");
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(second.stdout()).isEqualTo(first.stdout());
    // the archive fits this JVM: no warning, nothing recorded again
    assertThat(second.stderr()).isEmpty();
  }

  @Test
  @Order(3)
  void demoCompactServeOnceAndServeWithHealthEndpointRunFromTheUnpackedArchive() throws Exception {
    CommandRun demo = lakeops("demo", "--files", "60", "--rows-per-file", "500");
    assertThat(demo.exitCode()).as(demo.toString()).isZero();
    assertThat(demo.stdout())
        .contains("Writing 60 small files of 500 rows into demo.events")
        .contains("Compacted lakeops.demo.events (binpack): 60 files")
        .contains("Rows unchanged: identical count and checksum over every column.");
    String warehouse = work.resolve("lakeops-demo-warehouse").toString();

    CommandRun compact =
        lakeops(
            "compact",
            "demo.events",
            "--warehouse",
            warehouse,
            "--strategy",
            "sort",
            "--sort-order",
            "user_id",
            "--option",
            "rewrite-all=true",
            "--json");
    assertThat(compact.exitCode()).as(compact.toString()).isZero();
    JsonNode compaction = JSON.readTree(compact.stdout());
    assertThat(compaction.get("strategy").asText()).isEqualTo("sort");
    assertThat(compaction.get("input_files").asInt()).isEqualTo(10);
    assertThat(compaction.get("committed_groups").asInt())
        .isEqualTo(compaction.get("file_groups").asInt())
        .isPositive();
    assertThat(compaction.get("commits").asInt()).isEqualTo(1);

    // the shipped example policy loads, and its values are the ones in effect
    CommandRun policy =
        lakeops(
            "policy",
            "demo.events",
            "--warehouse",
            warehouse,
            "--policy",
            install.resolve("conf/policy.yaml").toString());
    assertThat(policy.exitCode()).as(policy.toString()).isZero();
    assertThat(policy.stdout())
        .containsPattern("compact\\.strategy +binpack +catalog")
        .containsPattern("expire\\.older-than +5d +catalog");

    Path expireNow =
        Files.writeString(
            work.resolve("expire-now.yaml"),
            """
        catalog:
          expire: {older-than: 1s, retain-last: 1}
        """);
    CommandRun once =
        lakeops("serve", "--warehouse", warehouse, "--policy", expireNow.toString(), "--once");
    assertThat(once.exitCode()).as(once.toString()).isZero();
    assertThat(once.stderr() + once.stdout())
        .contains("demo.events expire-snapshots succeeded")
        .contains("lakeops serve: stopped");
    CommandRun runs = lakeops("runs", "--warehouse", warehouse, "--json");
    assertThat(runs.exitCode()).as(runs.toString()).isZero();
    assertThat(JSON.readTree(runs.stdout()).get("runs"))
        .anySatisfy(
            run -> {
              assertThat(run.get("operation").asText()).isEqualTo("expire-snapshots");
              assertThat(run.get("host").asText()).isEqualTo("serve");
              assertThat(run.get("status").asText()).isEqualTo("succeeded");
            })
        .anySatisfy(run -> assertThat(run.get("operation").asText()).isEqualTo("compact"));

    serveWithHealthEndpoint(warehouse);

    // nothing went to HOME: the state is under the install directory
    try (Stream<Path> written = Files.list(home)) {
      assertThat(written).isEmpty();
    }
  }

  private void serveWithHealthEndpoint(String warehouse) throws Exception {
    Path stderr = work.resolve("serve.stderr");
    Process serve =
        launcher(
                "serve",
                "--warehouse",
                warehouse,
                "--policy",
                install.resolve("conf/policy.yaml").toString(),
                "--http",
                "127.0.0.1:0")
            .redirectOutput(work.resolve("serve.stdout").toFile())
            .redirectError(stderr.toFile())
            .start();
    try {
      String url = awaitDashboardUrl(serve, stderr);
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      HttpResponse<String> health =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "health")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("ok\n");
      int port = URI.create(url).getPort();
      assertThat(runDockerHealthCheck(port)).as("the Dockerfile's HEALTHCHECK, serve up").isZero();
      HttpResponse<String> metrics =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("# TYPE lakeops_");

      serve.destroy(); // SIGTERM, as systemd and docker stop send it
      assertThat(serve.waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(serve.exitValue()).isZero();
      assertThat(stderr).content().contains("lakeops serve: stopped");
      assertThat(runDockerHealthCheck(port))
          .as("the Dockerfile's HEALTHCHECK, serve gone")
          .isNotZero();
    } finally {
      serve.destroyForcibly();
    }
  }

  /**
   * The Dockerfile's HEALTHCHECK command, run as Docker runs it ({@code /bin/sh -c}) against {@code
   * port} instead of the image's 9464; its exit code.
   */
  private static int runDockerHealthCheck(int port) throws Exception {
    List<String> lines = Files.readAllLines(install.resolve("Dockerfile"));
    int healthCheck =
        lines.indexOf(
            lines.stream()
                .filter(line -> line.startsWith("HEALTHCHECK"))
                .findFirst()
                .orElseThrow());
    String command = lines.get(healthCheck + 1).strip();
    assertThat(command).startsWith("CMD ").contains("/dev/tcp/127.0.0.1/9464");
    Process check =
        new ProcessBuilder(
                "/bin/sh",
                "-c",
                command.substring("CMD ".length()).replace("127.0.0.1/9464", "127.0.0.1/" + port))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return check.exitValue();
  }

  private static String awaitDashboardUrl(Process serve, Path stderr) throws Exception {
    Pattern dashboard = Pattern.compile("lakeops serve: dashboard at (http://\\S+/)");
    Instant deadline = Instant.now().plus(COMMAND_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      Matcher matcher = dashboard.matcher(Files.readString(stderr));
      if (matcher.find()) {
        return matcher.group(1);
      }
      if (!serve.isAlive()) {
        throw new AssertionError(
            "serve exited with " + serve.exitValue() + ": " + Files.readString(stderr));
      }
      Thread.sleep(200);
    }
    throw new AssertionError("serve printed no dashboard address: " + Files.readString(stderr));
  }

  private static CommandRun lakeops(String... arguments) throws Exception {
    Path stdout = Files.createTempFile(root, "stdout", ".txt");
    Path stderr = Files.createTempFile(root, "stderr", ".txt");
    Process process =
        launcherWithoutNetwork(arguments)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "lakeops " + String.join(" ", arguments) + " still running after " + COMMAND_TIMEOUT);
    }
    return new CommandRun(
        List.of(arguments),
        process.exitValue(),
        Files.readString(stdout),
        Files.readString(stderr));
  }

  /** bin/lakeops with an environment of HOME, PATH and JAVA_HOME only. */
  private static ProcessBuilder launcher(String... arguments) throws IOException {
    return launcher(List.of(), arguments);
  }

  /** bin/lakeops in a network namespace of its own, which has no interface up, where possible. */
  private static ProcessBuilder launcherWithoutNetwork(String... arguments) throws IOException {
    return launcher(NETWORK_ISOLATION, arguments);
  }

  private static ProcessBuilder launcher(List<String> prefix, String... arguments)
      throws IOException {
    List<String> command =
        Stream.of(
                prefix.stream(),
                Stream.of(install.resolve("bin/lakeops").toString()),
                Stream.of(arguments))
            .flatMap(part -> part)
            .toList();
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.put("HOME", home.toString());
    environment.put("PATH", path.toString());
    environment.put("JAVA_HOME", System.getProperty("java.home"));
    environment.put("LANG", "C.UTF-8");
    return builder;
  }

  private record CommandRun(List<String> command, int exitCode, String stdout, String stderr) {
    @Override
    public String toString() {
      return "lakeops "
          + String.join(" ", command)
          + " exited "
          + exitCode
          + "\n--- stdout\n"
          + stdout
          + "\n--- stderr\n"
          + stderr;
    }
  }
}
