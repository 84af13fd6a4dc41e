package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.telemetry.advise.LayoutKind;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mixed workload recorded through the store's API on a real table written hour by hour: 60 % of
 * the queries look up one {@code user_id}, 40 % read a short {@code ts} range. Sorting by {@code
 * user_id} (what the column ranking alone proposes) would make every {@code ts} query read the
 * whole table instead of one hour's file; the advisor must not advise it, and must say per query
 * class what each layout does. {@code MixedWorkloadAdviseCommandTest} (command line) checks what
 * {@code lakeops advise} prints for the same workload.
 */
class MixedWorkloadAdviceTest {
  private static final TableName EVENTS = TableName.of("trino_catalog", "db", "events");
  private static final long TARGET_FILE_SIZE = 64 * 1024;

  @TempDir Path directory;

  @Test
  void doesNotAdviseALayoutThatMakesTheTimeRangeQueriesReadTheWholeTable() throws Exception {
    Table table = create(true);
    String store = recordMixedWorkload();

    TableAdvice advice;
    try (TelemetryStore telemetry = TelemetryStoreFactory.open(store)) {
      advice = TableAdvisor.withDefaults(telemetry).adviseWithCosts(table, TARGET_FILE_SIZE);
    }

    LayoutEvaluation byUserId = evaluation(advice, LayoutKind.SORT, List.of("user_id"));
    QueryClassEstimate timeRange = estimate(byUserId, "ts RANGE");
    assertThat(timeRange.share()).isCloseTo(0.4, within(0.001));
    assertThat(timeRange.ratio()).as("ts queries under a user_id sort").isGreaterThan(5);
    assertThat(byUserId.acceptable()).isFalse();
    assertThat(advice.advice().confident() && advice.advice().columns().get(0).equals("user_id"))
        .isFalse();
    if (advice.advice().confident()) {
      assertThat(advice.chosen().orElseThrow().worsened()).isEmpty();
    }
    print(advice);

    RowFingerprint rows = RowFingerprint.of(table);
    CompactionResult compaction =
        new AdvisedCompactor(new TableCompactor())
            .compact(
                table,
                CompactionRequest.builder().strategy(Strategy.AUTO).telemetryStore(store).build());
    table.refresh();
    ScanMeasurement after =
        new ScanMeasurer()
            .measure(table, new WorkloadBuilder(8).forQueryClass(table, timeRange.queryClass()));

    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    assertThat(compaction.strategyReason()).doesNotStartWith("sort by user_id");
    assertThat(after.rowGroupBytes() / after.queries().size())
        .as("bytes a ts query reads after compact --strategy auto")
        .isLessThanOrEqualTo((long) (1.5 * timeRange.bytesNow()));
  }

  @Test
  void weighsBothClassesWhenNeitherIsClusteredNowAndCompactsIntoTheLayoutThatHelpsBoth()
      throws Exception {
    Table table = create(false);
    String store = recordMixedWorkload();

    TableAdvice advice;
    try (TelemetryStore telemetry = TelemetryStoreFactory.open(store)) {
      advice = TableAdvisor.withDefaults(telemetry).adviseWithCosts(table, TARGET_FILE_SIZE);
    }
    print(advice);

    LayoutEvaluation chosen = advice.chosen().orElseThrow();
    assertThat(advice.advice().confident()).isTrue();
    assertThat(chosen.acceptable()).isTrue();
    assertThat(chosen.reduction()).isGreaterThan(0.3);
    assertThat(chosen.candidate().columns()).containsExactlyInAnyOrder("user_id", "ts");
    assertThat(advice.evaluations().get(0)).isEqualTo(chosen);

    RowFingerprint rows = RowFingerprint.of(table);
    CompactionResult compaction =
        new AdvisedCompactor(new TableCompactor())
            .compact(
                table,
                CompactionRequest.builder().strategy(Strategy.AUTO).telemetryStore(store).build());
    table.refresh();

    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    assertThat(compaction.strategy())
        .isEqualTo("auto->" + chosen.candidate().layout().name().toLowerCase(Locale.ROOT));
    for (QueryClassEstimate estimate : chosen.classes()) {
      ScanMeasurement after =
          new ScanMeasurer()
              .measure(table, new WorkloadBuilder(8).forQueryClass(table, estimate.queryClass()));
      long measured = after.rowGroupBytes() / after.queries().size();
      System.out.printf(
          Locale.ROOT,
          "  %s: now %,d, estimated %,d, measured after compaction %,d%n",
          estimate.queryClass().description(),
          estimate.bytesNow(),
          estimate.bytesAfter(),
          measured);
      assertThat(measured).as(estimate.queryClass().description()).isLessThan(estimate.bytesNow());
    }
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

  private static LayoutEvaluation evaluation(
      TableAdvice advice, LayoutKind layout, List<String> columns) {
    return advice.evaluations().stream()
        .filter(evaluation -> evaluation.candidate().equals(new LayoutCandidate(layout, columns)))
        .findFirst()
        .orElseThrow();
  }

  private static QueryClassEstimate estimate(LayoutEvaluation evaluation, String queryClass) {
    return evaluation.classes().stream()
        .filter(estimate -> estimate.queryClass().description().equals(queryClass))
        .findFirst()
        .orElseThrow();
  }

  private static void print(TableAdvice advice) {
    System.out.printf(
        Locale.ROOT,
        "Advice: %s by %s, confidence %.3f%n%s%n",
        advice.advice().layout(),
        advice.advice().columns(),
        advice.advice().confidence(),
        advice.advice().explanation());
    for (LayoutEvaluation evaluation : advice.evaluations()) {
      System.out.printf(
          Locale.ROOT,
          "  %-28s change %+.1f%% acceptable %s%n",
          evaluation.candidate().description(),
          -100 * evaluation.reduction(),
          evaluation.acceptable());
      for (QueryClassEstimate estimate : evaluation.classes()) {
        System.out.printf(
            Locale.ROOT,
            "    %-20s share %.2f now %,d after %,d (%+.1f%%)%n",
            estimate.queryClass().description(),
            estimate.share(),
            estimate.bytesNow(),
            estimate.bytesAfter(),
            estimate.changePercent());
      }
    }
  }
}
