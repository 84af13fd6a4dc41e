package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.advise.TelemetryFixtures;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.verify.RowFingerprint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lakeops advise} and {@code lakeops compact --strategy auto} through {@link Main#run}. */
class AdviseCommandTest {
  /** The CLI's catalog is called {@code lakeops}, so engines' telemetry names the table so. */
  private static final TableName EVENTS = TableName.of("lakeops", "db", "events");

  @TempDir Path directory;
  private Path warehouse;
  private String store;
  private Table table;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream originalOut;
  private PrintStream originalErr;

  @BeforeEach
  void createTableAndCaptureOutput() {
    warehouse = directory.resolve("warehouse");
    store = "sqlite:" + directory.resolve("telemetry.db");
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 12, 500, 4);
    originalOut = System.out;
    originalErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreOutput() {
    System.setOut(originalOut);
    System.setErr(originalErr);
  }

  @Test
  void advisesSortInJson() throws Exception {
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 100);

    int code =
        Main.run(
            "advise",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--telemetry-store",
            store,
            "--json");

    assertThat(code).as(error()).isZero();
    JsonNode advice = json();
    assertThat(advice.get("table").asText()).isEqualTo("lakeops.db.events");
    assertThat(advice.get("layout").asText()).isEqualTo("sort");
    assertThat(advice.get("columns").toString()).isEqualTo("[\"user_id\"]");
    assertThat(advice.get("confidence").asDouble()).isEqualTo(0.963);
    assertThat(advice.get("confident").asBoolean()).isTrue();
    assertThat(advice.get("filter_events").asLong()).isEqualTo(100);
    assertThat(advice.get("explanation").asText()).contains("user_id");
    assertThat(advice.get("auto_strategy").asText()).isEqualTo("auto->sort");
    assertThat(advice.get("auto_sort_order").asText()).isEqualTo("user_id ASC");
    assertThat(advice.get("rankings").get(0).get("distinct_count").asLong())
        .isBetween(5_000L, 6_000L);
    assertThat(advice.has("measurement")).isFalse();
  }

  @Test
  void advisesInPlainText() {
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 100);

    int code =
        Main.run(
            "advise", "db.events", "--warehouse", warehouse.toString(), "--telemetry-store", store);

    assertThat(code).as(error()).isZero();
    assertThat(output())
        .startsWith("Advice for lakeops.db.events: sort by user_id (confidence 0.963, confident)")
        .contains("compact --strategy auto would run: auto->sort (user_id ASC)")
        .contains("Expected change per query class under sort by user_id (bytes one query reads):")
        .containsPattern("user_id EQUALITY +100\\.0% ");
  }

  @Test
  void insufficientDataSaysSoAndMeasuresNothing() {
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 3);

    int code =
        Main.run(
            "advise",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--telemetry-store",
            store,
            "--measure");

    assertThat(code).as(error()).isZero();
    assertThat(output())
        .startsWith(
            "Advice for lakeops.db.events: insufficient data (confidence 0.000, not confident)")
        .contains("compact --strategy auto would run: auto->binpack")
        .contains("not measured: binpack: no layout advice.");
  }

  @Test
  void measuresTheAdvisedLayoutOnACopy() throws Exception {
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 100);
    long snapshot = table.currentSnapshot().snapshotId();

    int code =
        Main.run(
            "advise",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--telemetry-store",
            store,
            "--json",
            "--measure-filter",
            "user_id = 50000",
            "--target-file-size",
            "32KB",
            "--spill-dir",
            directory.resolve("spill").toString());

    assertThat(code).as(error()).isZero();
    JsonNode measurement = json().get("measurement");
    assertThat(measurement.get("layout").asText()).isEqualTo("sort");
    assertThat(measurement.get("before").get("queries").get(0).get("filter").asText())
        .isEqualTo("user_id = 50000");
    assertThat(measurement.get("before").get("files").asLong()).isEqualTo(12);
    assertThat(measurement.get("after").get("files").asLong()).isLessThanOrEqualTo(4);
    assertThat(measurement.get("after").get("file_bytes").asLong())
        .isLessThan(measurement.get("before").get("file_bytes").asLong());
    assertThat(measurement.get("file_bytes_reduction").asDouble()).isPositive();
    assertThat(measurement.get("after").get("page_bytes").asLong())
        .isLessThanOrEqualTo(measurement.get("after").get("row_group_bytes").asLong());
    assertThat(measurement.get("before").get("queries").get(0).has("page_bytes")).isTrue();
    assertThat(measurement.has("page_bytes_reduction")).isTrue();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  @Test
  void compactAutoReportsTheChosenStrategyAndWhy() throws Exception {
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 100);
    RowFingerprint before = RowFingerprint.of(table);

    int code =
        Main.run(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--strategy",
            "auto",
            "--telemetry-store",
            store,
            "--target-file-size",
            "32KB",
            "--json");

    assertThat(code).as(error()).isZero();
    JsonNode result = json();
    assertThat(result.get("strategy").asText()).isEqualTo("auto->sort");
    assertThat(result.get("strategy_reason").asText())
        .startsWith("sort by user_id ASC: the advice is confident");
    assertThat(result.get("overlapping_files").asInt()).isZero();
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void compactAutoBinpacksWithoutTelemetry() {
    int code =
        Main.run(
            "compact",
            "db.events",
            "--warehouse",
            warehouse.toString(),
            "--strategy",
            "auto",
            "--telemetry-store",
            store);

    assertThat(code).as(error()).isZero();
    assertThat(output())
        .startsWith("Compacted lakeops.db.events (auto->binpack): 12 files")
        .contains("Strategy auto->binpack: binpack: no confident layout advice. ");
  }

  private JsonNode json() throws Exception {
    return new ObjectMapper().readTree(output());
  }

  private String output() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String error() {
    return err.toString(StandardCharsets.UTF_8).trim();
  }
}
