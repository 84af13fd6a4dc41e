package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.spark.LocalSpark.Fingerprint;
import dev.lakeops.spark.telemetry.TelemetrySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs of the Spark procedures in the run ledger of {@code spark.lakeops.telemetry.store}, on a
 * real SQLite file and a real PostgreSQL schema, in a real local Spark session.
 */
class SparkRunLedgerTest extends SparkSessionPerClass {
  private static final String POSTGRESQL_URL =
      System.getProperty(
          "telemetry.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  private static final int INSERTS = 6;

  @TempDir Path directory;
  private String schema;

  @AfterEach
  void forgetStore() throws Exception {
    spark.conf().unset(TelemetrySettings.STORE);
    if (schema != null) {
      execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  @Test
  void compactOnTheDriverIsARowOfTheSqliteLedgerWithTheResultsFigures() {
    String store = "sqlite:" + directory.resolve("lakeops.db");
    spark.conf().set(TelemetrySettings.STORE, store);
    String table = createTable("ledger_driver", "");
    Fingerprint before = fingerprint(spark, table);

    Row result = spark.sql("CALL lakeops.compact(table => '" + table + "')").first();

    assertThat(fingerprint(spark, table)).isEqualTo(before);
    RunRecord run = onlyRun(store, "db.ledger_driver");
    assertRecordedAs(run, "compact", result);
  }

  @Test
  void compactOnExecutorsAndMaintainAreRowsOfThePostgresqlLedger() throws Exception {
    String store = postgresqlStore();
    spark.conf().set(TelemetrySettings.STORE, store);
    String table = createTable("ledger_executors", "");
    Fingerprint before = fingerprint(spark, table);

    Row result =
        spark
            .sql("CALL lakeops.compact(table => '" + table + "', execution => 'executors')")
            .first();
    spark
        .sql("CALL lakeops.maintain(table => '" + table + "', skip_steps => array('orphans'))")
        .collectAsList();

    assertThat(fingerprint(spark, table)).isEqualTo(before);
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      List<RunRecord> runs = ledger.list(RunQuery.all().withTable("db.ledger_executors"));
      assertThat(runs)
          .extracting(RunRecord::operation)
          .containsExactlyInAnyOrder("compact", "expire-snapshots", "compact", "rewrite-manifests");
      assertThat(runs)
          .allSatisfy(
              run -> {
                assertThat(run.start().host()).isEqualTo(RunHost.SPARK);
                assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
              });
      assertRecordedAs(runs.get(runs.size() - 1), "compact", result);
    }
  }

  @Test
  void aFailedCompactionIsAFailedRowWithItsOneLineError() throws Exception {
    String store = "sqlite:" + directory.resolve("lakeops.db");
    spark.conf().set(TelemetrySettings.STORE, store);
    String table = createTable("ledger_failed", "");
    deleteOneDataFile(table);

    assertThatThrownBy(
            () -> spark.sql("CALL lakeops.compact(table => '" + table + "')").collectAsList())
        .hasMessageContaining("ledger_failed");

    RunRecord run = onlyRun(store, "db.ledger_failed");
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error())
        .hasValueSatisfying(error -> assertThat(error).isNotBlank().doesNotContain("\n"));
    assertThat(run.figures().snapshotId()).isEmpty();
  }

  @Test
  void aGroupThatFailsUnderPartialProgressIsCountedAsFailedDataFiles() throws Exception {
    String store = "sqlite:" + directory.resolve("lakeops.db");
    spark.conf().set(TelemetrySettings.STORE, store);
    String table = createTable("ledger_partial", "PARTITIONED BY (country)");
    long frenchFiles = filesOf(table, "FR");
    Fingerprint otherRows =
        fingerprint(spark, "(SELECT * FROM " + table + " WHERE country <> 'FR')");
    deleteOneDataFileOf(table, "FR");

    Row result =
        spark
            .sql(
                "CALL lakeops.compact(table => '"
                    + table
                    + "', options => map('partial-progress.enabled', 'true'))")
            .first();

    assertThat(result.getInt(result.fieldIndex("failed_data_files_count")))
        .isEqualTo((int) frenchFiles);
    assertThat(result.getInt(result.fieldIndex("rewritten_data_files_count")))
        .isEqualTo(2 * INSERTS);
    assertThat(filesOf(table, "FR")).isEqualTo(frenchFiles);
    assertThat(filesOf(table, "NL")).isEqualTo(1);
    assertThat(fingerprint(spark, "(SELECT * FROM " + table + " WHERE country <> 'FR')"))
        .isEqualTo(otherRows);
    RunRecord run = onlyRun(store, "db.ledger_partial");
    assertRecordedAs(run, "compact", result);
  }

  @Test
  void aStoreThatCannotBeReachedDoesNotFailTheCall() {
    spark
        .conf()
        .set(
            TelemetrySettings.STORE,
            "jdbc:postgresql://127.0.0.1:1/test?user=postgres&connectTimeout=2");
    String table = createTable("ledger_unreachable", "");
    Fingerprint before = fingerprint(spark, table);

    Row result = spark.sql("CALL lakeops.compact(table => '" + table + "')").first();

    assertThat(result.getInt(0)).isEqualTo(INSERTS);
    assertThat(result.getInt(1)).isEqualTo(1);
    assertThat(fingerprint(spark, table)).isEqualTo(before);
  }

  private static void assertRecordedAs(RunRecord run, String operation, Row result) {
    assertThat(run.operation()).isEqualTo(operation);
    assertThat(run.start().host()).isEqualTo(RunHost.SPARK);
    assertThat(run.start().catalog()).isEqualTo(LocalSpark.ICEBERG_CATALOG);
    assertThat(run.start().reason()).isEqualTo("CALL by " + spark.sparkContext().sparkUser());
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.error()).isEmpty();
    assertThat(run.finished()).isPresent();
    assertThat(run.figures().inputFiles())
        .isEqualTo(result.getInt(result.fieldIndex("rewritten_data_files_count")));
    assertThat(run.figures().outputFiles())
        .isEqualTo(result.getInt(result.fieldIndex("added_data_files_count")));
    assertThat(run.figures().inputBytes())
        .isEqualTo(result.getLong(result.fieldIndex("rewritten_bytes_count")));
    assertThat(run.figures().outputBytes()).isPositive();
    assertThat(run.figures().removedDeleteFiles())
        .isEqualTo(result.getInt(result.fieldIndex("removed_delete_files_count")));
    assertThat(run.figures().peakMemoryBytes())
        .isEqualTo(result.getLong(result.fieldIndex("peak_memory_bytes")));
    assertThat(run.figures().snapshotId())
        .hasValue(result.getLong(result.fieldIndex("snapshot_id")));
  }

  private static RunRecord onlyRun(String store, String table) {
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      List<RunRecord> runs = ledger.list(RunQuery.all().withTable(table));
      assertThat(runs).hasSize(1);
      return runs.get(0);
    }
  }

  private String postgresqlStore() throws Exception {
    schema = "lakeops_spark_ledger_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE SCHEMA " + schema);
    return POSTGRESQL_URL + (POSTGRESQL_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  private static void execute(String sql) throws Exception {
    try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static long filesOf(String table, String country) {
    return spark
        .sql("SELECT count(*) FROM " + table + ".files WHERE partition.country = '" + country + "'")
        .first()
        .getLong(0);
  }

  private static void deleteOneDataFile(String table) throws Exception {
    deleteFile(spark.sql("SELECT file_path FROM " + table + ".files LIMIT 1").first().getString(0));
  }

  private static void deleteOneDataFileOf(String table, String country) throws Exception {
    deleteFile(
        spark
            .sql(
                "SELECT file_path FROM "
                    + table
                    + ".files WHERE partition.country = '"
                    + country
                    + "' LIMIT 1")
            .first()
            .getString(0));
  }

  private static void deleteFile(String location) throws Exception {
    Files.delete(
        Path.of(java.net.URI.create(location.startsWith("file:") ? location : "file:" + location)));
  }

  /**
   * A table of {@link #INSERTS} small inserts; partitioned by country, each insert writes one file
   * per country.
   */
  private static String createTable(String name, String partitioning) {
    String table = "cat.db." + name;
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING, amount DOUBLE) USING iceberg "
            + partitioning);
    for (int insert = 0; insert < INSERTS; insert++) {
      spark.sql(
          "INSERT INTO "
              + table
              + " SELECT id, element_at(array('NL', 'DE', 'FR'), cast(id % 3 AS INT) + 1), id * 1.5 FROM range("
              + insert * 300
              + ", "
              + (insert + 1) * 300
              + ", 1, 1)");
    }
    return table;
  }
}
