package dev.lakeops.spark.executors;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lakeops.compact(..., execution => 'executors')} on real separate executor JVMs
 * ({@code local-cluster[2,1,1024]}): file groups are rewritten as Spark tasks, the driver commits.
 * Every test checks row count and an all-column checksum before and after.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ExecutorCompactionTest {
  private static final int INSERTS = 3;

  @TempDir static Path warehouse;
  @TempDir static Path haltDirectory;
  private static SparkSession spark;

  @BeforeAll
  static void startCluster() {
    spark = ExecutorClusterSpark.start(warehouse, haltDirectory);
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
  }

  @AfterAll
  static void stopCluster() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  @Order(1)
  void binpacksWithPositionDeletesOnTheExecutors() {
    String table = createTable("binpack_deletes", 2);
    spark.sql("DELETE FROM " + table + " WHERE id % 10 = 3");
    assertThat(deleteFileCount(table)).isPositive();

    Row result =
        compactAndCheckRows(
            table, "CALL lakeops.compact(table => '" + table + "', execution => 'executors')");

    assertThat(result.getInt(0)).isEqualTo(INSERTS * 3 * 2);
    assertThat(result.getInt(1)).isEqualTo(3);
    assertThat(deleteFileCount(table)).isZero();
    assertThat(dataFilePaths(table))
        .hasSize(3)
        .allMatch(path -> path.matches(".*-lakeops-.*-attempt-\\d+-\\d+\\.parquet"));
  }

  @Test
  @Order(2)
  void sortsAVersion3TableWithDeletionVectorsOnTheExecutors() {
    String table = createTable("sort_v3", 3);
    spark.sql("DELETE FROM " + table + " WHERE amount < 300");
    assertThat(deleteFileCount(table)).isPositive();

    compactAndCheckRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'sort', sort_order => 'note DESC, id',"
            + " execution => 'executors')");

    assertThat(deleteFileCount(table)).isZero();
    assertThat(dataFileCount(spark, table)).isEqualTo(3);
    List<Row> firstRows =
        spark
            .sql("SELECT note, id FROM " + table + " WHERE country = 'NL' LIMIT 2")
            .collectAsList();
    assertThat(firstRows.get(0).getString(0)).isEqualTo("n6");
  }

  @Test
  @Order(3)
  void zordersWithEqualityDeletesOnTheExecutors() {
    String table = createTable("zorder", 2);
    EqualityDeletes.deleteIds(warehouse, "zorder", "NL", 0L, 3L, 300L, 903L);
    spark.catalog().refreshTable(table);
    assertThat(
            spark
                .sql("SELECT count(*) FROM " + table + " WHERE id IN (0, 3, 300, 903, 6)")
                .first()
                .getLong(0))
        .isEqualTo(1);

    compactAndCheckRows(
        table,
        "CALL lakeops.compact(table => '"
            + table
            + "', strategy => 'zorder', zorder_by => 'id, amount',"
            + " execution => 'executors', options => map('max-concurrent-file-group-rewrites', '1'))");

    assertThat(dataFileCount(spark, table)).isEqualTo(3);
    assertThat(deleteFileCount(table)).isZero();
  }

  @Test
  @Order(4)
  void anUnknownExecutionIsRejectedAndTheTableIsUnchanged() {
    String table = createTable("bad_execution", 2, 1);
    long files = dataFileCount(spark, table);

    assertThatThrownBy(
            () ->
                spark.sql("CALL lakeops.compact(table => '" + table + "', execution => 'cluster')"))
        .hasMessageContaining(
            "Invalid argument execution => 'cluster': Unknown execution 'cluster': use 'driver' or 'executors'");

    assertThat(dataFileCount(spark, table)).isEqualTo(files);
  }

  @Test
  @Order(5)
  void aGroupWhoseExecutorDiesIsRetriedAndTheLostAttemptsFileIsNeverReferenced()
      throws IOException {
    String table = createTable("executor_lost", 2);
    spark.sql("DELETE FROM " + table + " WHERE id % 7 = 0");
    HaltingFileIO.arm(haltDirectory);

    compactAndCheckRows(
        table, "CALL lakeops.compact(table => '" + table + "', execution => 'executors')");

    Path halted = HaltingFileIO.haltedFile(haltDirectory);
    assertThat(halted.toString()).contains("/db/executor_lost/data/").contains("-attempt-");
    assertThat(halted).exists();
    List<String> everyDataFile =
        spark.sql("SELECT file_path FROM " + table + ".all_data_files").collectAsList().stream()
            .map(row -> row.getString(0).replaceFirst("^file:", ""))
            .toList();
    assertThat(everyDataFile).isNotEmpty().doesNotContain(halted.toString());
    assertThat(dataFileCount(spark, table)).isEqualTo(3);
    assertThat(deleteFileCount(table)).isZero();
  }

  /**
   * Runs {@code call}, checks the rows kept and Spark reading the new snapshot; returns the result
   * row.
   */
  private static Row compactAndCheckRows(String table, String call) {
    Fingerprint before = fingerprint(spark, table);
    long filesBefore = dataFileCount(spark, table);

    Row result = spark.sql(call).first();

    assertThat(fingerprint(spark, table)).isEqualTo(before);
    assertThat(dataFileCount(spark, table)).isLessThan(filesBefore);
    return result;
  }

  /** A table partitioned by country (3 partitions), each insert writing 2 files per partition. */
  private static String createTable(String name, int formatVersion) {
    return createTable(name, formatVersion, INSERTS);
  }

  private static String createTable(String name, int formatVersion, int inserts) {
    String table = "cat.db." + name;
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING, amount DOUBLE, note STRING) USING iceberg"
            + " PARTITIONED BY (country) TBLPROPERTIES ('format-version' = '"
            + formatVersion
            + "',"
            + " 'write.delete.mode' = 'merge-on-read', 'write.distribution-mode' = 'none',"
            + " 'write.spark.fanout.enabled' = 'true')");
    for (int insert = 0; insert < inserts; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, CASE id % 3 WHEN 0 THEN 'NL' WHEN 1 THEN 'DE' ELSE 'FR' END,"
              + " id * 1.5, concat('n', id % 7) FROM range("
              + insert * 600
              + ", "
              + (insert + 1) * 600
              + ", 1, 2)");
    }
    return table;
  }

  private static long deleteFileCount(String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".delete_files").first().getLong(0);
  }

  private static List<String> dataFilePaths(String table) {
    return spark.sql("SELECT file_path FROM " + table + ".files").collectAsList().stream()
        .map(row -> row.getString(0))
        .toList();
  }
}
