package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds a Flink job's pom as docs/flink.md tells users to write it (src/it), with the hook
 * declared before Iceberg's Flink connector and after it, against the hook just packaged, and runs
 * its test: a local job writing an Iceberg table with the hook attached, which must write every row
 * and compact. Both orders must resolve the same jars.
 *
 * <p>The job's build gets the LakeOps artifacts from a repository of its own under target/ (never
 * installed into the shared local repository) and everything else from the shared local repository
 * as a {@code file://} remote, so it downloads no jar the LakeOps build did not already fetch.
 */
class ConsumerProjectIT {
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
  private static final Pattern TOKEN = Pattern.compile("@([a-z0-9.]+)@");

  private static Path work;
  private static Path repository;
  private static Path settings;

  @BeforeAll
  static void prepareRepository() throws IOException {
    work = Paths.get(property("consumer.workDirectory"));
    repository = work.resolve("repository");
    Files.createDirectories(repository);
    String version = property("consumer.token.lakeops.version");
    publish("lakeops-parent", version, Paths.get(property("consumer.parentPom")), null);
    publish(
        "lakeops-flink-sink-hook",
        version,
        Paths.get(property("consumer.hookPom")),
        Paths.get(property("consumer.hookJar")));
    for (String module : List.of("lakeops-core-engine", "lakeops-telemetry-common")) {
      Path jar = reactorJar(module);
      Path pom =
          jar.getParent().getFileName().toString().equals("target")
              ? jar.getParent().getParent().resolve("pom.xml")
              : jar.resolveSibling(jar.getFileName().toString().replaceAll("\\.jar$", ".pom"));
      publish(module, version, pom, jar);
    }
    settings = work.resolve("settings.xml");
    Files.writeString(settings, settingsXml(Paths.get(property("consumer.sharedRepository"))));
    copyTree(Paths.get(property("consumer.sources"), "consumer-job"), work.resolve("consumer-job"));
  }

  @Test
  void jobBuildsAndCompactsWithTheHookDeclaredFirstOrSecond() throws Exception {
    Set<String> hookFirst = buildAndRun("hook-first");
    Set<String> icebergFirst = buildAndRun("iceberg-first");

    assertThat(hookFirst).as("jars with the hook declared first").isEqualTo(icebergFirst);
    Map<String, String> jackson = jacksonVersions(hookFirst);
    assertThat(jackson).containsKeys("jackson-annotations", "jackson-core", "jackson-databind");
    assertThat(jackson.values().stream().map(ConsumerProjectIT::minor).collect(Collectors.toSet()))
        .as("one Jackson minor version: %s", jackson)
        .hasSize(1);
  }

  /** Builds the job of {@code order}.pom.xml and runs its test; returns the jars it ran with. */
  private static Set<String> buildAndRun(String order) throws Exception {
    Path project = work.resolve(order);
    Files.createDirectories(project);
    Files.writeString(
        project.resolve("pom.xml"),
        filtered(Paths.get(property("consumer.sources"), order + ".pom.xml")));
    Path log = work.resolve(order + ".log");
    Path maven = Paths.get(property("maven.home"), "bin", "mvn");
    List<String> command =
        new ArrayList<>(
            List.of(
                maven.toString(),
                "-B",
                "-ntp",
                "-s",
                settings.toString(),
                "-Dmaven.repo.local=" + repository,
                "test"));
    Process process =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!process.waitFor(BUILD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "The " + order + " job build ran longer than " + BUILD_TIMEOUT + "; log: " + log);
    }
    assertThat(process.exitValue())
        .as("mvn test of the %s job (log %s):%n%s", order, log, tail(log))
        .isZero();
    return new TreeSet<>(Files.readAllLines(project.resolve("target").resolve("classpath.txt")));
  }

  private static String filtered(Path template) throws IOException {
    String text = Files.readString(template);
    Matcher matcher = TOKEN.matcher(text);
    StringBuilder result = new StringBuilder();
    while (matcher.find()) {
      matcher.appendReplacement(
          result, Matcher.quoteReplacement(property("consumer.token." + matcher.group(1))));
    }
    matcher.appendTail(result);
    return result.toString();
  }

  /** Places a pom (and jar) where a local repository keeps them, as {@code mvn install} would. */
  private static void publish(String artifactId, String version, Path pom, Path jar)
      throws IOException {
    Path directory = repository.resolve(Paths.get("dev", "lakeops", artifactId, version));
    Files.createDirectories(directory);
    Files.copy(
        pom,
        directory.resolve(artifactId + "-" + version + ".pom"),
        StandardCopyOption.REPLACE_EXISTING);
    if (jar != null) {
      assertThat(jar).as("packaged %s", artifactId).isRegularFile();
      Files.copy(
          jar,
          directory.resolve(artifactId + "-" + version + ".jar"),
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * The packaged jar of a LakeOps module on this test's class path (the reactor's, after package).
   */
  private static Path reactorJar(String module) {
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Paths.get(entry);
      if (path.getFileName().toString().startsWith(module + "-") && entry.endsWith(".jar")) {
        return path;
      }
    }
    throw new AssertionError(
        "No packaged "
            + module
            + " jar on the class path: run mvn verify from the"
            + " project root (the reactor packages it first)");
  }

  /**
   * Remote repository: the shared local repository; the real Central only for the odd missing pom.
   */
  private static String settingsXml(Path sharedRepository) {
    String url = sharedRepository.toUri().toString();
    String repository =
        "<id>lakeops-build-cache</id><url>"
            + url
            + "</url>"
            + "<releases><checksumPolicy>ignore</checksumPolicy></releases>"
            + "<snapshots><enabled>false</enabled></snapshots>";
    return "<settings><profiles><profile><id>lakeops-build-cache</id>"
        + "<repositories><repository>"
        + repository
        + "</repository></repositories>"
        + "<pluginRepositories><pluginRepository>"
        + repository
        + "</pluginRepository></pluginRepositories>"
        + "</profile></profiles><activeProfiles><activeProfile>lakeops-build-cache</activeProfile>"
        + "</activeProfiles></settings>\n";
  }

  private static Map<String, String> jacksonVersions(Set<String> jars) {
    Pattern jackson =
        Pattern.compile(
            "(jackson-(?:annotations|core|databind|datatype-[a-z0-9]+))-(2\\.[0-9.]+)\\.jar");
    Map<String, String> versions = new TreeMap<>();
    for (String jar : jars) {
      Matcher matcher = jackson.matcher(jar);
      if (matcher.matches()) {
        versions.put(matcher.group(1), matcher.group(2));
      }
    }
    return versions;
  }

  private static String minor(String version) {
    String[] parts = version.split("\\.");
    return parts[0] + "." + parts[1];
  }

  private static void copyTree(Path source, Path target) throws IOException {
    try (Stream<Path> paths = Files.walk(source)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path destination = target.resolve(source.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(destination);
        } else {
          Files.copy(path, destination, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new AssertionError(
          "System property "
              + name
              + " is not set: run this test through the"
              + " module's failsafe configuration (mvn verify)");
    }
    return value;
  }
}
