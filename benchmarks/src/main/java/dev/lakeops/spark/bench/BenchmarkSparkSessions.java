package dev.lakeops.spark.bench;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session every benchmark phase runs Spark's procedures in: local[2], no UI, Iceberg's
 * SQL extensions.
 */
final class BenchmarkSparkSessions {
  private BenchmarkSparkSessions() {}

  static SparkSession.Builder builder(String appName) {
    return SparkSession.builder()
        .master("local[2]")
        .appName(appName)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
  }

  /** Adds an Iceberg Hadoop catalog named {@code catalog} over {@code warehouse}. */
  static SparkSession.Builder withHadoopCatalog(
      SparkSession.Builder builder, String catalog, Path warehouse) {
    return builder
        .config("spark.sql.catalog." + catalog, "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog." + catalog + ".type", "hadoop")
        .config("spark.sql.catalog." + catalog + ".warehouse", warehouse.toString());
  }
}
