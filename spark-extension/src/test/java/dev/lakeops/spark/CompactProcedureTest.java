package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.currentSnapshotId;
import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code CALL lakeops.compact(...)} against real Iceberg tables in a real local Spark session. */
class CompactProcedureTest extends SparkSessionPerClass {
  private static final int INSERTS = 6;

  @Test
  void compactsUnpartitionedTable() {
    String table = createTable("events_flat", "");

    assertCompactionKeepsRows(table, "CALL lakeops.compact(table => '" + table + "')");
  }

  /** {@code memory} is the deprecated spelling of {@code memory_budget}: it still works. */
  @Test
  void compactsPartitionedTableWithOptionsAndMemory() {
    String table = createTable("events_by_country", "PARTITIONED BY (country)");

    assertCompactionKeepsRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'binpack', options => map('target-file-size-bytes', '10485760',"
            + " 'min-input-files', '2'), memory => '64MB', dry_run => false)");
  }

  @Test
  void compactsTableOfCurrentNamespaceWithoutCatalogPrefix() {
    String table = createTable("events_current", "");
    spark.sql("USE cat.db");
    try {
      assertCompactionKeepsRows(table, "CALL lakeops.compact(table => 'events_current')");
    } finally {
      spark.sql("USE spark_catalog.default");
    }
  }

  @Test
  void sortsWithAnExplicitSortOrder() {
    String table = createTable("events_sorted", "");

    assertCompactionKeepsRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'sort', sort_order => 'country ASC NULLS FIRST, id DESC')");
  }

  @Test
  void takesTheContractsSpellings(@TempDir Path spill) {
    String table = createTable("events_contract", "");

    assertCompactionKeepsRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'zorder', zorder_columns => array('id', 'amount'),"
            + " memory_budget => '64MB', spill_directory => '"
            + spill
            + "')");
  }

  /** {@code zorder_by} is the deprecated spelling of {@code zorder_columns}: it still works. */
  @Test
  void zordersByTwoColumns() {
    String table = createTable("events_zordered", "");

    assertCompactionKeepsRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'zorder', zorder_by => 'id, amount')");
  }

  @Test
  void compactsOnlyPartitionsMatchingWhere() {
    String table = createTable("events_where", "PARTITIONED BY (country)");
    long otherFilesBefore = filesOutside(table, "NL");
    Fingerprint before = fingerprint(spark, table);

    Row result =
        spark
            .sql("CALL lakeops.compact(table => '" + table + "', where => \"country = 'NL'\")")
            .first();

    assertThat(result.getInt(0)).isEqualTo(INSERTS);
    assertThat(result.getInt(1)).isEqualTo(1);
    assertThat(filesOutside(table, "NL")).isEqualTo(otherFilesBefore);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void dryRunChangesNothing() {
    String table = createTable("events_dry_run", "");
    long snapshotBefore = currentSnapshotId(spark, table);
    long filesBefore = dataFileCount(spark, table);

    Row result =
        spark.sql("CALL lakeops.compact(table => '" + table + "', dry_run => true)").first();

    assertThat(result.getInt(0)).isEqualTo((int) filesBefore);
    assertThat(result.getInt(1)).isZero();
    assertThat(result.isNullAt(result.fieldIndex("snapshot_id"))).isTrue();
    assertThat(currentSnapshotId(spark, table)).isEqualTo(snapshotBefore);
    assertThat(dataFileCount(spark, table)).isEqualTo(filesBefore);
  }

  private static void assertCompactionKeepsRows(String table, String call) {
    Fingerprint before = fingerprint(spark, table);
    long filesBefore = dataFileCount(spark, table);
    long snapshotBefore = currentSnapshotId(spark, table);
    assertThat(filesBefore).isGreaterThanOrEqualTo(INSERTS);

    List<Row> rows = spark.sql(call).collectAsList();

    assertThat(rows).hasSize(1);
    Row result = rows.get(0);
    assertThat(result.schema().fieldNames())
        .containsExactly(
            "rewritten_data_files_count",
            "added_data_files_count",
            "rewritten_bytes_count",
            "failed_data_files_count",
            "removed_delete_files_count",
            "snapshot_id",
            "seconds",
            "peak_memory_bytes",
            "strategy",
            "strategy_reason",
            "object_requests",
            "object_bytes_read",
            "object_bytes_written",
            "requests_in_flight_peak",
            "requests_in_flight_mean",
            "cpu_seconds",
            "verification",
            "verified_rows");
    long filesAfter = dataFileCount(spark, table);
    assertThat(filesAfter).isLessThan(filesBefore);
    assertThat(result.getInt(0)).isEqualTo((int) filesBefore);
    assertThat(result.getInt(1)).isEqualTo((int) filesAfter);
    assertThat(result.getLong(2)).isPositive();
    assertThat(result.getInt(3)).isZero();
    assertThat(result.getDouble(6)).isPositive();
    assertThat(result.getString(8)).isIn("binpack", "sort", "zorder");
    assertThat(result.isNullAt(9)).isTrue();
    // a table on local disk: no object requests, but the CPU time is reported
    assertThat(result.<String, Long>getJavaMap(10))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("GET", 0L, "PUT", 0L, "HEAD", 0L, "LIST", 0L, "DELETE", 0L));
    assertThat(result.getLong(result.fieldIndex("object_bytes_read"))).isZero();
    assertThat(result.getDouble(result.fieldIndex("cpu_seconds"))).isPositive();
    assertThat(result.getString(result.fieldIndex("verification"))).isIn("counts", "checksum");
    assertThat(result.getLong(result.fieldIndex("verified_rows"))).isPositive();
    long snapshotAfter = currentSnapshotId(spark, table);
    assertThat(snapshotAfter).isNotEqualTo(snapshotBefore).isEqualTo(result.getLong(5));
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  private static long filesOutside(String table, String country) {
    return spark
        .sql(
            "SELECT count(*) FROM " + table + ".files WHERE partition.country <> '" + country + "'")
        .first()
        .getLong(0);
  }

  /** A table of {@link #INSERTS} small inserts, each writing one or more small files. */
  private static String createTable(String name, String partitioning) {
    String table = "cat.db." + name;
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING, amount DOUBLE, note STRING, ts TIMESTAMP) USING iceberg "
            + partitioning);
    for (int insert = 0; insert < INSERTS; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, element_at(array('NL', 'DE', 'FR'), cast(id % 3 AS INT) + 1),"
              + " id * 1.5, IF(id % 7 = 0, NULL, concat('note-', id)),"
              + " timestamp_seconds(1700000000 + id) FROM range("
              + insert * 500
              + ", "
              + (insert + 1) * 500
              + ", 1, 1)");
    }
    return table;
  }
}
