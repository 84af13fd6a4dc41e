package dev.lakeops.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.apache.arrow.vector.ValueVector;
import org.apache.iceberg.IcebergBuild;
import org.apache.parquet.Version;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code lakeops --version} prints: the LakeOps version the build wrote into the jar, and the
 * versions of Iceberg, Parquet and Arrow on the class path, each read from its own jar (Iceberg's
 * build properties, the Maven descriptors of parquet-common and arrow-vector), so the answer is
 * what this installation carries, not what a source file claims.
 */
final class LakeOpsVersion implements IVersionProvider {
  static final String UNKNOWN = "unknown";

  @Override
  public String[] getVersion() {
    return lines().toArray(String[]::new);
  }

  static List<String> lines() {
    return List.of(
        "lakeops " + lakeOps(),
        "iceberg " + IcebergBuild.version(),
        "parquet " + mavenVersion(Version.class, "org.apache.parquet", "parquet-common"),
        "arrow " + mavenVersion(ValueVector.class, "org.apache.arrow", "arrow-vector"),
        "java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")");
  }

  /** The version the build wrote into {@code lakeops-version.properties}. */
  static String lakeOps() {
    return property(LakeOpsVersion.class, "lakeops-version.properties", "lakeops.version")
        .orElse(UNKNOWN);
  }

  /** The version in the Maven descriptor of the jar that holds {@code type}. */
  static String mavenVersion(Class<?> type, String groupId, String artifactId) {
    String descriptor = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    return property(type, descriptor, "version").orElse(UNKNOWN);
  }

  private static Optional<String> property(Class<?> type, String resource, String key) {
    try (InputStream in = type.getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      Properties properties = new Properties();
      properties.load(in);
      return Optional.ofNullable(properties.getProperty(key))
          .filter(value -> !value.isBlank() && !value.startsWith("${"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }
}
