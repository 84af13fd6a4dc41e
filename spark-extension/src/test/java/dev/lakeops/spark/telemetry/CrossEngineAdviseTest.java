package dev.lakeops.spark.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.cli.Main;
import dev.lakeops.spark.LocalSpark;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Spark session records queries on {@code cat.db.events} (its catalog is called {@code
 * cat}); {@code lakeops advise db.events --warehouse W}, whose catalog is called {@code lakeops},
 * finds them by the table's UUID, which the listener recorded from the Iceberg table of the plan.
 */
class CrossEngineAdviseTest {
  private static final int QUERIES = 32;

  @TempDir static Path directory;
  private static SparkSession spark;
  private static String store;

  @BeforeAll
  static void recordSparkQueries() throws Exception {
    store = "sqlite:" + directory.resolve("telemetry.db");
    spark =
        LocalSpark.start(
            directory.resolve("warehouse"),
            Map.of(
                "spark.sql.queryExecutionListeners",
                LakeOpsQueryListener.class.getName(),
                TelemetrySettings.STORE,
                store,
                TelemetrySettings.FLUSH_INTERVAL,
                "100ms"));
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
    spark.sql(
        "CREATE TABLE cat.db.events (user_id BIGINT, ts TIMESTAMP, amount DOUBLE) USING iceberg");
    spark.sql("CREATE TABLE cat.db.quiet (id BIGINT) USING iceberg");
    spark.sql(
        "INSERT INTO cat.db.events SELECT (id * 7919) % 100000, timestamp_seconds(1780000000 + id * 60), id * 0.5"
            + " FROM range(10000)");
    spark.sql("INSERT INTO cat.db.quiet VALUES (1)");
    for (int query = 0; query < QUERIES; query++) {
      spark.sql("SELECT amount FROM cat.db.events WHERE user_id = " + query * 3001).collectAsList();
    }
    spark.sparkContext().listenerBus().waitUntilEmpty(30_000);
    SharedTelemetryRecorders.closeAll();
  }

  @AfterAll
  static void stopSpark() {
    if (spark != null) {
      spark.stop();
    }
    SharedTelemetryRecorders.closeAll();
  }

  @Test
  void sparkRecordsTheTableUuidAndAdviseFindsItsQueriesUnderAnotherCatalogName() throws Exception {
    String uuid = tableUuid();
    assertThat(recordedUuids()).containsOnly(uuid);

    JsonNode advice = advise("db.events");

    assertThat(advice.get("table").asText()).isEqualTo("lakeops.db.events");
    assertThat(advice.get("filter_events").asLong()).isEqualTo(QUERIES);
    assertThat(advice.get("recorded_as").toString()).isEqualTo("[\"cat.db.events\"]");
    assertThat(advice.get("layout").asText()).isEqualTo("sort");
    assertThat(advice.get("columns").toString()).isEqualTo("[\"user_id\"]");
    assertThat(advice.get("confident").asBoolean()).isTrue();
    assertThat(advice.get("explanation").asText())
        .contains("Queries were recorded as cat.db.events.");
  }

  @Test
  void aTableWithoutQueriesNamesTheTablesTheStoreHolds() throws Exception {
    JsonNode advice = advise("db.quiet");

    assertThat(advice.get("layout").asText()).isEqualTo("insufficient_data");
    assertThat(advice.get("filter_events").asLong()).isZero();
    assertThat(advice.get("other_tables").toString()).isEqualTo("[\"cat.db.events\"]");
    assertThat(advice.get("explanation").asText())
        .startsWith("No layout advised for lakeops.db.quiet: no queries on it were recorded")
        .contains("The store holds queries for: cat.db.events (closest to the name first).");
  }

  private static JsonNode advise(String table) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      code =
          Main.run(
              "advise",
              table,
              "--warehouse",
              directory.resolve("warehouse").toString(),
              "--telemetry-store",
              store,
              "--json");
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
  }

  /** The UUID in the table's current metadata file, as Iceberg wrote it. */
  private static String tableUuid() throws Exception {
    String metadataFile =
        spark
            .sql(
                "SELECT file FROM cat.db.events.metadata_log_entries ORDER BY timestamp DESC LIMIT 1")
            .first()
            .getString(0);
    JsonNode metadata = new ObjectMapper().readTree(new URI(metadataFile).toURL());
    return metadata.get("table-uuid").asText();
  }

  private static Set<String> recordedUuids() throws Exception {
    Set<String> uuids = new HashSet<>();
    try (Connection connection = DriverManager.getConnection("jdbc:" + store);
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT DISTINCT table_uuid FROM telemetry_event")) {
      while (rows.next()) {
        uuids.add(rows.getString(1));
      }
    }
    return uuids;
  }
}
