package dev.lakeops.spark.executors;

import dev.lakeops.spark.LakeOpsProcedureCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * A real Spark session on {@code local-cluster[2,1,1024]}: an in-process standalone master and two
 * workers, each launching one executor as a separate JVM (1 core, 1 GB). Spark's worker builds the
 * executor command from a Spark home ({@code SPARK_HOME}, set by the build to {@code
 * target/spark-home}); that home gets an empty {@code jars/} directory, and the test class path
 * goes to the executors through {@code spark.executor.extraClassPath}. The session uses Kryo as its
 * serializer.
 */
final class ExecutorClusterSpark {
  static final String ICEBERG_CATALOG = "cat";

  private ExecutorClusterSpark() {}

  /**
   * A session over a hadoop catalog {@code cat} at {@code warehouse}; {@link HaltingFileIO}
   * triggers live in {@code haltDirectory}.
   */
  static SparkSession start(Path warehouse, Path haltDirectory) {
    String sparkHome = System.getenv("SPARK_HOME");
    if (sparkHome == null) {
      throw new IllegalStateException(
          "SPARK_HOME is not set: run the test through Maven (surefire sets it)");
    }
    try {
      Files.createDirectories(Path.of(sparkHome, "jars"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return SparkSession.builder()
        .master("local-cluster[2,1,1024]")
        .appName("lakeops-executors-test")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
        .config("spark.executor.extraClassPath", System.getProperty("java.class.path"))
        .config(
            "spark.executor.extraJavaOptions",
            "-D" + HaltingFileIO.DIRECTORY_PROPERTY + "=" + haltDirectory)
        .config("spark.sql.shuffle.partitions", "2")
        // as many Iceberg deployments run; group tasks must not depend on the session's serializer
        .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog." + ICEBERG_CATALOG, "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog." + ICEBERG_CATALOG + ".type", "hadoop")
        .config("spark.sql.catalog." + ICEBERG_CATALOG + ".warehouse", warehouse.toUri().toString())
        .config("spark.sql.catalog." + ICEBERG_CATALOG + ".io-impl", HaltingFileIO.class.getName())
        .config("spark.sql.catalog.lakeops", LakeOpsProcedureCatalog.class.getName())
        .getOrCreate();
  }
}
