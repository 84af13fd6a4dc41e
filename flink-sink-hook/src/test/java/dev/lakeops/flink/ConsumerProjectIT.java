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
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Builds a Flink job's pom as docs/flink.md tells users to write it (src/it), with the hook
 * declared before Iceberg's Flink connector and after it, against the hook just packaged, and runs
 * its test: a local job writing an Iceberg table with the hook attached, which must write every row
 * and compact. Both orders must resolve the same jars.
 *
 * <p>The job's build gets the LakeOps artifacts from a repository of its own under target/: the
 * release zip target/lakeops-flink-sink-hook-<version>-maven-repository.zip unzipped there, as
 * docs/flink.md tells users (never installed into the shared local repository) and everything else
 * from the shared local repository as a {@code file://} remote, so it downloads no jar the LakeOps
 * build did not already fetch.
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
    // the release artifact (docs/flink.md, "Install from a release"), unzipped as users unzip it
    unzip(Paths.get(property("consumer.hookRepositoryZip")), repository);
    for (String artifactId :
        List.of(
            "lakeops-parent",
            "lakeops-flink-sink-hook",
            "lakeops-core-engine",
            "lakeops-telemetry-common")) {
      Path directory = repository.resolve(Paths.get("dev", "lakeops", artifactId, version));
      assertThat(directory.resolve(artifactId + "-" + version + ".pom")).isRegularFile();
      if (!artifactId.equals("lakeops-parent")) {
        assertThat(directory.resolve(artifactId + "-" + version + ".jar")).isRegularFile();
      }
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

  /**
   * {@code unzip archive -d directory}: files and directories only, each inside {@code directory}.
   */
  private static void unzip(Path archive, Path directory) throws IOException {
    assertThat(archive).as("packaged release zip").isRegularFile();
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(archive))) {
      for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
        Path target = directory.resolve(entry.getName()).normalize();
        assertThat(target.startsWith(directory)).as("%s inside %s", target, directory).isTrue();
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
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
