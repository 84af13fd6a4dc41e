package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At the table's own target file size (Iceberg's default 512 MB) a 6.5 MB table sorts into one
 * file, so file pruning cannot help: the advised sort must pay off through row groups and pages. 32
 * recorded queries that agree on {@code user_id} equality are enough for confident advice; the
 * advised layout (with its row-group size) is simulated on a copy and measured, against the same
 * sort with the table's 128 MB row groups.
 */
class RowGroupSkippingTest {
  @TempDir Path warehouse;
  @TempDir Path simulations;

  @Test
  void advisedSortSkipsRowGroupsAndPagesAtTheTablesDefaultTargetSize() {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), warehouse.resolve("warehouse").toString());
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 0, 24, 12_000, 24);
    String store = "sqlite:" + warehouse.resolve("telemetry.db");
    TelemetryFixtures.recordFilters(
        store, TelemetryTableNames.of(table), "user_id", PredicateKind.EQUALITY, 32);
    RowFingerprint rows = RowFingerprint.of(table);
    SortAdvice advice;
    try (TelemetryStore telemetry = TelemetryStoreFactory.open(store)) {
      advice = TableAdvisor.withDefaults(telemetry).advise(table);
    }
    CompactionRequest request =
        CompactionRequest.builder().strategy(Strategy.AUTO).telemetryStore(store).build();
    AutoStrategyChoice auto = AutoStrategy.choose(table, request, advice);
    List<WorkloadQuery> workload = new WorkloadBuilder(8).fromAdvice(table, advice);

    LayoutBenefit advised =
        new LayoutSimulator(simulations).simulate(table, auto.request(), workload);
    Map<String, String> tableRowGroups = new LinkedHashMap<>(auto.request().options());
    tableRowGroups.remove(RewriteOptions.ROW_GROUP_SIZE_BYTES);
    LayoutBenefit plain =
        new LayoutSimulator(simulations)
            .simulate(table, auto.request().toBuilder().options(tableRowGroups).build(), workload);

    assertThat(advice.confident()).as(advice.explanation()).isTrue();
    assertThat(advice.confidence()).isEqualTo(0.893);
    assertThat(auto.strategyName()).isEqualTo("auto->sort");
    assertThat(auto.request().options())
        .containsEntry(RewriteOptions.ROW_GROUP_SIZE_BYTES, String.valueOf(1L << 20));
    assertThat(advised.after().tableFiles()).isEqualTo(1);
    assertThat(advised.after().tableRowGroups()).isGreaterThanOrEqualTo(8);
    assertThat(plain.after().tableRowGroups()).isEqualTo(1);
    assertThat(plain.rowGroupBytesReduction()).isLessThan(0.1);
    assertThat(plain.pageBytesReduction()).isGreaterThanOrEqualTo(0.8);
    assertThat(advised.rowGroupBytesReduction()).isGreaterThanOrEqualTo(0.8);
    assertThat(advised.pageBytesReduction())
        .isGreaterThanOrEqualTo(advised.rowGroupBytesReduction());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    System.out.printf(
        Locale.ROOT,
        "Table %,d bytes in %d files. Advised sort (row groups of %s bytes): %d file, %d row groups; bytes read"
            + " %+.1f%% (files), %+.1f%% (row groups), %+.1f%% (pages). Same sort with the table's row groups:"
            + " %d row groups; %+.1f%% (files), %+.1f%% (row groups), %+.1f%% (pages)%n",
        advised.before().tableBytes(),
        advised.before().tableFiles(),
        auto.request().options().get(RewriteOptions.ROW_GROUP_SIZE_BYTES),
        advised.after().tableFiles(),
        advised.after().tableRowGroups(),
        -100 * advised.fileBytesReduction(),
        -100 * advised.rowGroupBytesReduction(),
        -100 * advised.pageBytesReduction(),
        plain.after().tableRowGroups(),
        -100 * plain.fileBytesReduction(),
        -100 * plain.rowGroupBytesReduction(),
        -100 * plain.pageBytesReduction());
  }
}
