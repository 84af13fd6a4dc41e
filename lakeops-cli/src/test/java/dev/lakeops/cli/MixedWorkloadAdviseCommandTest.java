package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.advise.HourlyEventsTable;
import dev.lakeops.advise.LayoutEvaluation;
import dev.lakeops.advise.TableAdvice;
import dev.lakeops.advise.TableAdvisor;
import dev.lakeops.advise.TelemetryFixtures;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code lakeops advise} prints for a mixed workload on a table written hour by hour: 60 % of
 * the queries look up one {@code user_id}, 40 % read a short {@code ts} range (the core's {@code
 * MixedWorkloadAdviceTest} checks the advice itself and the compaction it leads to).
 */
class MixedWorkloadAdviseCommandTest {
  private static final TableName EVENTS = TableName.of("trino_catalog", "db", "events");
  private static final long TARGET_FILE_SIZE = 64 * 1024;

  @TempDir Path directory;

  @Test
  void plainTextShowsTheExpectedChangePerQueryClass() throws Exception {
    Table table = create(false);
    String store = recordMixedWorkload();
    TableAdvice advice;
    try (TelemetryStore telemetry = TelemetryStoreFactory.open(store)) {
      advice = TableAdvisor.withDefaults(telemetry).adviseWithCosts(table, TARGET_FILE_SIZE);
    }
    LayoutEvaluation chosen = advice.chosen().orElseThrow();

    String text =
        CommandLineForTests.run(
            "advise",
            "db.events",
            "--warehouse",
            directory.resolve("warehouse").toString(),
            "--telemetry-store",
            store);

    assertThat(text)
        .contains(
            "Expected change per query class under "
                + chosen.candidate().description()
                + " (bytes one query reads):")
        .containsPattern("user_id EQUALITY +60\\.0% +[0-9.]+KB +[0-9.]+KB +-[0-9.]+%")
        .containsPattern("ts RANGE +40\\.0% +[0-9.]+KB +[0-9.]+KB +-[0-9.]+%");
  }

  @Test
  void jsonCarriesTheFiguresPerQueryClass() throws Exception {
    create(true);
    String store = recordMixedWorkload();

    JsonNode json =
        new ObjectMapper()
            .readTree(
                CommandLineForTests.run(
                    "advise",
                    "db.events",
                    "--warehouse",
                    directory.resolve("warehouse").toString(),
                    "--telemetry-store",
                    store,
                    "--target-file-size",
                    "64KB",
                    "--json"));

    JsonNode classes = json.get("query_classes");
    assertThat(classes).hasSize(2);
    assertThat(classes.get(0).get("query_class").asText()).isEqualTo("user_id EQUALITY");
    assertThat(classes.get(0).get("columns").toString()).isEqualTo("[\"user_id\"]");
    assertThat(classes.get(0).get("predicate_kinds").toString()).isEqualTo("[\"EQUALITY\"]");
    assertThat(classes.get(0).get("queries").asLong()).isEqualTo(60);
    assertThat(classes.get(0).get("share").asDouble()).isCloseTo(0.6, within(0.001));
    assertThat(classes.get(1).get("query_class").asText()).isEqualTo("ts RANGE");
    for (JsonNode queryClass : classes) {
      assertThat(queryClass.get("bytes_read_now").asLong()).isPositive();
      assertThat(queryClass.get("bytes_read_after").isNumber()).isTrue();
      assertThat(queryClass.get("change_percent").isNumber()).isTrue();
    }
    JsonNode userIdSort = null;
    for (JsonNode candidate : json.get("layout_candidates")) {
      if (candidate.get("layout").asText().equals("sort")
          && candidate.get("columns").toString().equals("[\"user_id\"]")) {
        userIdSort = candidate;
      }
    }
    assertThat(userIdSort).isNotNull();
    assertThat(userIdSort.get("acceptable").asBoolean()).isFalse();
    assertThat(userIdSort.get("worsened_classes").toString()).isEqualTo("[\"ts RANGE\"]");
    assertThat(json.get("filter_events").asLong()).isEqualTo(100);
  }

  private Table create(boolean arrivalOrder) {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), directory.resolve("warehouse").toString());
    return HourlyEventsTable.create(
        catalog, TableIdentifier.of("db", "events"), 3000, TARGET_FILE_SIZE, arrivalOrder);
  }

  private String recordMixedWorkload() {
    String store = "sqlite:" + directory.resolve("telemetry.db");
    TelemetryFixtures.recordFilters(store, EVENTS, "user_id", PredicateKind.EQUALITY, 60);
    TelemetryFixtures.recordFilters(store, EVENTS, "ts", PredicateKind.RANGE, 40);
    return store;
  }
}
