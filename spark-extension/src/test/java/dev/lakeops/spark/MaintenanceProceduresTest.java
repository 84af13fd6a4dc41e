package dev.lakeops.spark;

import static dev.lakeops.spark.CallFailures.assertCallFails;
import static dev.lakeops.spark.LocalSpark.currentSnapshotId;
import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * {@code CALL lakeops.expire_snapshots / remove_orphan_files / rewrite_manifests / maintain /
 * health} on real Iceberg tables in a real local Spark session.
 */
class MaintenanceProceduresTest extends SparkSessionPerClass {
  private static final int INSERTS = 5;

  @Test
  void expiresSnapshotsAndDeletesFilesOnlyTheyReached() throws IOException {
    String table = createTable("expire_me");
    spark.sql("INSERT OVERWRITE " + table + " SELECT * FROM " + table);
    Fingerprint before = fingerprint(spark, table);
    long snapshotsBefore = snapshotCount(table);
    long parquetFilesBefore = parquetFiles("expire_me");

    Row dryRun =
        spark
            .sql(
                "CALL lakeops.expire_snapshots(table => '"
                    + table
                    + "', older_than => TIMESTAMP '2100-01-01 00:00:00',"
                    + " retain_last => 1, dry_run => true)")
            .first();
    assertThat(snapshotCount(table)).isEqualTo(snapshotsBefore);
    assertThat(parquetFiles("expire_me")).isEqualTo(parquetFilesBefore);

    Row result =
        spark
            .sql(
                "CALL lakeops.expire_snapshots(table => '"
                    + table
                    + "', older_than => TIMESTAMP '2100-01-01 00:00:00',"
                    + " retain_last => 1)")
            .first();

    assertThat(result.schema().fieldNames())
        .containsExactly(
            "deleted_data_files_count",
            "deleted_position_delete_files_count",
            "deleted_equality_delete_files_count",
            "deleted_manifest_files_count",
            "deleted_manifest_lists_count",
            "deleted_statistics_files_count",
            "expired_snapshots_count",
            "retained_snapshots_count",
            "failed_deletes_count");
    assertThat(result.getLong(0)).isEqualTo(INSERTS).isEqualTo(dryRun.getLong(0));
    assertThat(result.getLong(1)).isZero();
    assertThat(result.getLong(2)).isZero();
    assertThat(result.getLong(3)).isPositive();
    assertThat(result.getLong(4)).isEqualTo(snapshotsBefore - 1);
    assertThat(result.getLong(6)).isEqualTo(snapshotsBefore - 1);
    assertThat(result.getLong(7)).isEqualTo(1);
    assertThat(result.getLong(8)).isZero();
    assertThat(snapshotCount(table)).isEqualTo(1);
    assertThat(parquetFiles("expire_me")).isEqualTo(parquetFilesBefore - INSERTS);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void removesOnlyOrphansOlderThanTheCutoff() throws IOException {
    String table = createTable("orphans");
    Path data = warehouse.resolve("db/orphans/data");
    Path old = Files.write(data.resolve("old-orphan.parquet"), new byte[] {1, 2, 3});
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(10))));
    Path fresh = Files.write(data.resolve("fresh-orphan.parquet"), new byte[] {4, 5, 6});
    // Table files are fresh too: the default 3-day cutoff would protect them even if unreferenced.
    Fingerprint before = fingerprint(spark, table);

    List<Row> dryRun =
        spark
            .sql("CALL lakeops.remove_orphan_files(table => '" + table + "', dry_run => true)")
            .collectAsList();
    assertThat(dryRun).hasSize(1);
    assertThat(dryRun.get(0).getString(0)).endsWith("/db/orphans/data/old-orphan.parquet");
    assertThat(Files.exists(old)).isTrue();

    List<Row> removed =
        spark.sql("CALL lakeops.remove_orphan_files(table => '" + table + "')").collectAsList();

    assertThat(removed.get(0).schema().fieldNames()).containsExactly("orphan_file_location");
    assertThat(removed)
        .extracting(row -> row.getString(0))
        .containsExactly(dryRun.get(0).getString(0));
    assertThat(Files.exists(old)).isFalse();
    assertThat(Files.exists(fresh)).isTrue();
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void rewritesOneManifestPerInsertIntoOne() {
    String table = createTable("manifests");
    Fingerprint before = fingerprint(spark, table);
    assertThat(manifestCount(table)).isEqualTo(INSERTS);

    Row result =
        spark.sql("CALL lakeops.rewrite_manifests(table => '" + table + "', spec_id => 0)").first();

    assertThat(result.schema().fieldNames())
        .containsExactly("rewritten_manifests_count", "added_manifests_count", "snapshot_id");
    assertThat(result.getInt(0)).isEqualTo(INSERTS);
    assertThat(result.getInt(1)).isEqualTo(1);
    assertThat(result.getLong(2)).isEqualTo(currentSnapshotId(spark, table));
    assertThat(manifestCount(table)).isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void maintainsStepByStepAndSkipsWhatItIsTold() {
    String table = createTable("maintained");
    Fingerprint before = fingerprint(spark, table);
    long snapshot = currentSnapshotId(spark, table);

    List<Row> dryRun =
        spark
            .sql(
                "CALL lakeops.maintain(table => '"
                    + table
                    + "', skip_steps => array('orphans'), dry_run => true)")
            .collectAsList();
    assertThat(dryRun)
        .extracting(row -> row.getString(0) + " " + row.getString(1))
        .containsExactly("expire done", "orphans skipped", "compact done", "manifests done");
    assertThat(dryRun.get(2).getString(2)).startsWith("would rewrite " + INSERTS + " files");
    assertThat(currentSnapshotId(spark, table)).isEqualTo(snapshot);

    List<Row> rows = spark.sql("CALL lakeops.maintain(table => '" + table + "')").collectAsList();

    assertThat(rows).extracting(row -> row.getString(1)).containsOnly("done");
    assertThat(dataFileCount(spark, table)).isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void reportsHealthFromMetadata() {
    String table = createTable("healthy");
    long rows = spark.sql("SELECT count(*) FROM " + table).first().getLong(0);

    Row health = spark.sql("CALL lakeops.health(table => '" + table + "')").first();

    assertThat(health.getLong(health.fieldIndex("data_files_count")))
        .isEqualTo(dataFileCount(spark, table));
    assertThat(health.getLong(health.fieldIndex("small_data_files_count"))).isEqualTo(INSERTS);
    assertThat(health.getDouble(health.fieldIndex("small_file_ratio"))).isEqualTo(1.0);
    assertThat(health.getLong(health.fieldIndex("records_count"))).isEqualTo(rows);
    assertThat(health.getLong(health.fieldIndex("snapshots_count"))).isEqualTo(INSERTS);
    assertThat(health.getLong(health.fieldIndex("partitions_count"))).isEqualTo(1);
  }

  /** {@code older_than} takes an age as in Trino and the CLI, besides a timestamp. */
  @Test
  void olderThanTakesAnAge() {
    String table = createTable("expire_by_age");

    Row dryRun =
        spark
            .sql(
                "CALL lakeops.expire_snapshots(table => '"
                    + table
                    + "', older_than => '0s', retain_last => 1, dry_run => true)")
            .first();

    assertThat(dryRun.getLong(dryRun.fieldIndex("expired_snapshots_count"))).isEqualTo(INSERTS - 1);
    assertThat(snapshotCount(table)).isEqualTo(INSERTS);
  }

  @Test
  void badInputIsOneLineAndChangesNothing() {
    String table = createTable("untouched");
    long snapshot = currentSnapshotId(spark, table);

    assertCallFails(
        spark,
        "CALL lakeops.expire_snapshots(table => '" + table + "', retain_last => 0)",
        "Invalid argument retain_last => 0: every branch keeps at least its head; use 1 or more");
    assertCallFails(
        spark,
        "CALL lakeops.remove_orphan_files(table => '"
            + table
            + "', older_than => TIMESTAMP '2100-01-01 00:00:00')",
        "Invalid argument older_than => 2100-01-01T00:00:00Z: files written in the last 3d may belong to writes"
            + " still in progress; use a timestamp at least that long ago");
    assertCallFails(
        spark,
        "CALL lakeops.remove_orphan_files(table => '"
            + table
            + "', prefix_mismatch_mode => 'maybe')",
        "Invalid argument prefix_mismatch_mode => 'maybe': Invalid prefix mismatch mode 'maybe': use one of error, ignore, delete");
    assertCallFails(
        spark,
        "CALL lakeops.rewrite_manifests(table => '" + table + "', target_manifest_size => 'big')",
        "Invalid argument target_manifest_size => 'big': Invalid size 'big'");
    assertCallFails(
        spark,
        "CALL lakeops.maintain(table => '" + table + "', skip_steps => array('vacuum'))",
        "Invalid argument skip_steps: Unknown maintenance step 'vacuum': use one of expire, orphans, compact, manifests");
    assertCallFails(
        spark,
        "CALL lakeops.maintain(table => '"
            + table
            + "', skip_steps => array('orphans', CAST(NULL AS STRING)))",
        "Argument 'skip_steps' has a NULL element at position 2: remove it or pass a value");
    assertCallFails(
        spark,
        "CALL lakeops.expire_snapshots(table => '"
            + table
            + "', snapshot_ids => array(1L, CAST(NULL AS BIGINT)))",
        "Argument 'snapshot_ids' has a NULL element at position 2: remove it or pass a value");
    assertCallFails(
        spark,
        "CALL lakeops.expire_snapshots(table => '" + table + "', older_than => 'last week')",
        "Invalid older_than 'last week'");
    assertCallFails(
        spark,
        "CALL lakeops.health(table => 'cat.db.missing')",
        "Table 'cat.db.missing' does not exist in Iceberg catalog 'cat': check the name with SHOW TABLES IN cat.db");
    assertThat(currentSnapshotId(spark, table)).isEqualTo(snapshot);
    assertThat(snapshotCount(table)).isEqualTo(INSERTS);
  }

  private static long snapshotCount(String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".snapshots").first().getLong(0);
  }

  private static long manifestCount(String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".manifests").first().getLong(0);
  }

  private static long parquetFiles(String name) throws IOException {
    try (Stream<Path> files = Files.list(warehouse.resolve("db").resolve(name).resolve("data"))) {
      return files.filter(file -> file.toString().endsWith(".parquet")).count();
    }
  }

  /**
   * An unpartitioned table of {@link #INSERTS} small inserts: one data file and one manifest each.
   */
  private static String createTable(String name) {
    String table = "cat.db." + name;
    spark.sql("CREATE TABLE " + table + " (id BIGINT, name STRING, amount DOUBLE) USING iceberg");
    for (int insert = 0; insert < INSERTS; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, concat('name-', id), id * 0.5 FROM range("
              + insert * 200
              + ", "
              + (insert + 1) * 200
              + ", 1, 1)");
    }
    return table;
  }
}
