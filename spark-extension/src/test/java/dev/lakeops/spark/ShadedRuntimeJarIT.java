package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.spark.LocalSpark.Fingerprint;
import dev.lakeops.spark.telemetry.TelemetryForTests;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded runtime jar the way users do: next to Iceberg's own iceberg-spark-runtime jar,
 * with neither the core engine nor the unshaded Iceberg modules on the class path (see the failsafe
 * configuration in the pom).
 */
class ShadedRuntimeJarIT {
  @TempDir static Path warehouse;
  private static SparkSession spark;

  @BeforeAll
  static void startSpark() {
    spark =
        LocalSpark.start(
            warehouse,
            Map.of(
                "spark.sql.queryExecutionListeners",
                    "dev.lakeops.spark.telemetry.LakeOpsQueryListener",
                "spark.lakeops.telemetry.store", "sqlite:" + telemetryStore(),
                "spark.lakeops.telemetry.flush-interval", "100ms"));
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void classPathHoldsTheShadedJarAndIcebergsSparkRuntime() throws ClassNotFoundException {
    assertThat(codeSource(LakeOpsProcedureCatalog.class.getName()))
        .endsWith("lakeops-spark-runtime-4.1_2.13.jar");
    assertThat(codeSource("dev.lakeops.shaded.org.apache.iceberg.Table"))
        .endsWith("lakeops-spark-runtime-4.1_2.13.jar");
    assertThat(codeSource("org.apache.iceberg.Table")).contains("iceberg-spark-runtime-4.1_2.13");
    assertThatThrownBy(() -> Class.forName("dev.lakeops.cli.Main"))
        .isInstanceOf(ClassNotFoundException.class)
        .hasMessageContaining("dev.lakeops.cli");
  }

  @Test
  void compactsWithTheShadedJar() {
    String table = "cat.db.shaded";
    spark.sql("CREATE TABLE " + table + " (id BIGINT, name STRING, ts TIMESTAMP) USING iceberg");
    for (int insert = 0; insert < 5; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, concat('n', id), timestamp_seconds(id) FROM range("
              + insert * 100
              + ", "
              + (insert + 1) * 100
              + ", 1, 1)");
    }
    Fingerprint before = fingerprint(spark, table);
    long filesBefore = dataFileCount(spark, table);

    Row result = spark.sql("CALL lakeops.compact(table => '" + table + "')").first();

    assertThat(result.getInt(0)).isEqualTo((int) filesBefore);
    assertThat(dataFileCount(spark, table)).isLessThan(filesBefore).isEqualTo(result.getInt(1));
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  /**
   * Tasks and results go through Spark's serializers even in local mode: the relocated classes must
   * survive them.
   */
  @Test
  void compactsOnTheExecutorsWithTheShadedJar() {
    String table = "cat.db.shaded_executors";
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, name STRING) USING iceberg PARTITIONED BY (bucket(2, id))");
    for (int insert = 0; insert < 5; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, concat('n', id % 9) FROM range("
              + insert * 100
              + ", "
              + (insert + 1) * 100
              + ", 1, 1)");
    }
    Fingerprint before = fingerprint(spark, table);

    Row result =
        spark
            .sql(
                "CALL lakeops.compact(table => '"
                    + table
                    + "', strategy => 'sort', sort_order => 'name, id',"
                    + " execution => 'executors')")
            .first();

    assertThat(result.getInt(1)).isEqualTo(2);
    assertThat(dataFileCount(spark, table)).isEqualTo(2);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  @Test
  void unknownTableIsNamedWithTheShadedJar() {
    assertThatThrownBy(
            () -> spark.sql("CALL lakeops.compact(table => 'cat.db.missing')").collectAsList())
        .hasMessageContaining("Table 'cat.db.missing' does not exist in Iceberg catalog 'cat'");
  }

  @Test
  void maintenanceProceduresRunWithTheShadedJar() {
    String table = "cat.db.shaded_health";
    spark.sql("CREATE TABLE " + table + " (id BIGINT, name STRING) USING iceberg");
    spark.sql("INSERT INTO " + table + " VALUES (1, 'a'), (2, 'b')");
    spark.sql("INSERT INTO " + table + " VALUES (3, 'c')");

    Row health = spark.sql("CALL lakeops.health(table => '" + table + "')").first();
    Row manifests = spark.sql("CALL lakeops.rewrite_manifests(table => '" + table + "')").first();

    assertThat(health.getLong(health.fieldIndex("records_count"))).isEqualTo(3);
    assertThat(health.getLong(health.fieldIndex("data_files_count")))
        .isEqualTo(dataFileCount(spark, table));
    assertThat(manifests.getInt(0)).isEqualTo(2);
    assertThat(manifests.getInt(1)).isEqualTo(1);
    assertThat(spark.sql("SELECT count(*) FROM " + table).first().getLong(0)).isEqualTo(3);
  }

  @Test
  void telemetryListenerRecordsWithTheShadedJar() throws Exception {
    String table = "cat.db.shaded_telemetry";
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING) USING iceberg PARTITIONED BY (country)");
    spark.sql("INSERT INTO " + table + " VALUES (1, 'NL'), (2, 'DE')");
    spark.sql("SELECT id FROM " + table + " WHERE country = 'NL' AND id > 0").collectAsList();
    spark.sparkContext().listenerBus().waitUntilEmpty(30_000);

    Map<String, Set<String>> events =
        TelemetryForTests.closeRecordersAndRead("jdbc:sqlite:" + telemetryStore());

    assertThat(events)
        .containsEntry(
            "spark:cat.db.shaded_telemetry", Set.of("country FILTER EQUALITY", "id FILTER RANGE"));
  }

  private static Path telemetryStore() {
    return warehouse.resolve("telemetry.db");
  }

  private static String codeSource(String className) throws ClassNotFoundException {
    return Class.forName(className).getProtectionDomain().getCodeSource().getLocation().getPath();
  }
}
