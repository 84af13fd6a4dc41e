package dev.lakeops.spark;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A real local Spark session with an Iceberg hadoop catalog {@code cat} and the LakeOps catalog.
 */
public final class LocalSpark {
  public static final String ICEBERG_CATALOG = "cat";

  private LocalSpark() {}

  public static SparkSession start(Path warehouse) {
    return start(warehouse, Map.of());
  }

  /** The same session with {@code settings} added, e.g. the telemetry listener's. */
  public static SparkSession start(Path warehouse, Map<String, String> settings) {
    SparkSession.Builder builder = SparkSession.builder();
    settings.forEach(builder::config);
    return builder
        .master("local[2]")
        .appName("lakeops-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1")
        .config(
            "spark.sql.extensions",
            "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog." + ICEBERG_CATALOG, "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog." + ICEBERG_CATALOG + ".type", "hadoop")
        .config("spark.sql.catalog." + ICEBERG_CATALOG + ".warehouse", warehouse.toUri().toString())
        .config("spark.sql.catalog.lakeops", LakeOpsProcedureCatalog.class.getName())
        .getOrCreate();
  }

  /**
   * Row count and an order-independent checksum over every column: the sum of each row's 64-bit
   * hash, summed as a decimal so it cannot overflow.
   */
  public static Fingerprint fingerprint(SparkSession spark, String table) {
    Row row =
        spark
            .sql("SELECT count(*), sum(cast(xxhash64(*) AS DECIMAL(38, 0))) FROM " + table)
            .first();
    return new Fingerprint(row.getLong(0), String.valueOf(row.get(1)));
  }

  public static long dataFileCount(SparkSession spark, String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".data_files").first().getLong(0);
  }

  public static long currentSnapshotId(SparkSession spark, String table) {
    return spark
        .sql("SELECT snapshot_id FROM " + table + ".snapshots ORDER BY committed_at DESC LIMIT 1")
        .first()
        .getLong(0);
  }

  /** What must survive a compaction unchanged. */
  public record Fingerprint(long rows, String checksum) {}
}
