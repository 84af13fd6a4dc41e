package dev.lakeops.spark;

import static dev.lakeops.spark.CallFailures.assertCallFails;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input gives a one-line message naming the thing and the fix, and changes nothing. */
class CompactProcedureErrorsTest {
  private static final String TABLE = "cat.db.target";

  @TempDir static Path warehouse;
  private static SparkSession spark;
  private static long snapshot;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.start(warehouse);
    spark
        .conf()
        .set(
            "spark.sql.catalog.plain",
            "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog");
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
    spark.sql("CREATE TABLE " + TABLE + " (id BIGINT, name STRING) USING iceberg");
    for (int insert = 0; insert < 3; insert++) {
      spark.sql("INSERT INTO " + TABLE + " VALUES (" + insert + ", 'row-" + insert + "')");
    }
    snapshot = currentSnapshotId();
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
  }

  /** Same snapshot, so same files and rows; read with Iceberg's API to keep Spark jobs out. */
  @AfterEach
  void tableIsUnchanged() {
    assertThat(currentSnapshotId()).isEqualTo(snapshot);
  }

  private static long currentSnapshotId() {
    return new HadoopCatalog(new Configuration(), warehouse.toString())
        .loadTable(TableIdentifier.of("db", "target"))
        .currentSnapshot()
        .snapshotId();
  }

  @Test
  void unknownTableIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => 'cat.db.missing')",
        "Table 'cat.db.missing' does not exist in Iceberg catalog 'cat': check the name with SHOW TABLES IN cat.db");
  }

  @Test
  void unconfiguredCatalogIsNamedWithTheSettingToAdd() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => 'nowhere.db.t')",
        "Catalog 'nowhere' of table 'nowhere.db.t' is not configured: set spark.sql.catalog.nowhere="
            + "org.apache.iceberg.spark.SparkCatalog and its type and warehouse");
  }

  @Test
  void nonIcebergCatalogIsRejected() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => 'plain.db.t')",
        "Catalog 'plain' is not an Iceberg catalog (spark.sql.catalog.plain="
            + "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog): LakeOps compacts tables of "
            + "org.apache.iceberg.spark.SparkCatalog or org.apache.iceberg.spark.SparkSessionCatalog");
  }

  @Test
  void unknownStrategyListsTheValidOnes() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '" + TABLE + "', strategy => 'fastest')",
        "Invalid argument strategy => 'fastest': Unknown strategy 'fastest': use one of binpack, sort, zorder, auto");
  }

  @Test
  void invalidMemoryIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '" + TABLE + "', memory => 'lots')",
        "Invalid argument memory => 'lots': Invalid size 'lots'");
  }

  @Test
  void invalidMemoryBudgetIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '" + TABLE + "', memory_budget => 'lots')",
        "Invalid argument memory_budget => 'lots': Invalid size 'lots'");
  }

  @Test
  void bothSpellingsOfAnArgumentAreRefused() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '" + TABLE + "', memory_budget => '64MB', memory => '1GB')",
        "Arguments 'memory_budget' and 'memory' are the same argument: pass only memory_budget"
            + " (memory is its deprecated spelling)");
  }

  @Test
  void nullListElementIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '"
            + TABLE
            + "', strategy => 'zorder', zorder_columns => array('id', CAST(NULL AS STRING)))",
        "Argument 'zorder_columns' has a NULL element at position 2: remove it or pass a value");
  }

  @Test
  void invalidTableNameIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => 'cat.db.')",
        "Invalid table name 'cat.db.': use catalog.namespace.table");
  }

  @Test
  void nullOptionValueIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '"
            + TABLE
            + "', options => map('min-input-files', CAST(NULL AS STRING)))",
        "Argument 'options' has a NULL value for key 'min-input-files'");
  }

  @Test
  void unknownRewriteOptionIsNamed() {
    assertCallFails(
        spark,
        "CALL lakeops.compact(table => '" + TABLE + "', options => map('target-size', '1'))",
        "Unknown rewrite option 'target-size'");
  }

  @Test
  void unknownProcedureListsTheAvailableOnes() {
    assertCallFails(spark, "CALL lakeops.shrink(table => '" + TABLE + "')", "compact");
  }
}
