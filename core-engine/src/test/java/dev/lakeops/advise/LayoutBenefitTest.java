package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advised layout's measured benefit on a real table: 100 recorded equality filters on {@code
 * user_id}, then scans for {@code user_id = v} planned before and after the advised sort, once on a
 * simulated copy and once for real.
 */
class LayoutBenefitTest {
  private static final Map<String, String> FILE_SIZE =
      Map.of(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(128 * 1024));

  @TempDir Path warehouse;
  @TempDir Path simulations;

  @Test
  void advisedSortReadsAtLeastEightyPercentFewerBytesForUserIdEquality() throws IOException {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), warehouse.resolve("warehouse").toString());
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 24, 2000, 6);
    String store = "sqlite:" + warehouse.resolve("telemetry.db");
    TelemetryFixtures.recordFilters(
        store, TelemetryTableNames.of(table), "user_id", PredicateKind.EQUALITY, 100);
    RowFingerprint rows = RowFingerprint.of(table);
    long snapshotBefore = table.currentSnapshot().snapshotId();
    SortAdvice advice;
    try (TelemetryStore telemetry = TelemetryStoreFactory.open(store)) {
      advice = TableAdvisor.withDefaults(telemetry).advise(table);
    }
    List<WorkloadQuery> workload = new WorkloadBuilder(8).fromAdvice(table, advice);
    CompactionRequest request =
        CompactionRequest.builder()
            .strategy(Strategy.AUTO)
            .options(FILE_SIZE)
            .telemetryStore(store)
            .build();

    LayoutBenefit simulated =
        new LayoutSimulator(simulations)
            .simulate(table, AutoStrategy.layout(table, request, advice).request(), workload);

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    try (Stream<Path> left = Files.list(simulations)) {
      assertThat(left).isEmpty();
    }
    assertThat(workload)
        .hasSize(8)
        .allSatisfy(query -> assertThat(query.description()).startsWith("user_id = "));
    assertThat(simulated.compaction().strategy()).isEqualTo("sort");
    assertThat(simulated.fileBytesReduction()).isGreaterThanOrEqualTo(0.8);
    assertThat(simulated.rowGroupBytesReduction()).isGreaterThanOrEqualTo(0.8);

    ScanMeasurement before = new ScanMeasurer().measure(table, workload);
    CompactionResult compaction =
        new AdvisedCompactor(new TableCompactor()).compact(table, request);
    table.refresh();
    ScanMeasurement after = new ScanMeasurer().measure(table, workload);

    assertThat(compaction.strategy()).isEqualTo("auto->sort");
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    assertThat(before).isEqualTo(simulated.before());
    assertThat(after.fileBytes()).isLessThanOrEqualTo((long) (0.2 * before.fileBytes()));
    assertThat(after.files()).isEqualTo(simulated.after().files());
    System.out.printf(
        Locale.ROOT,
        "Measured %d filters: before %d files / %d bytes / %d row groups / %d row-group bytes (table %d files,"
            + " %d bytes); after %d files / %d bytes / %d row groups / %d row-group bytes (table %d files, %d bytes);"
            + " file bytes -%.1f%%, row-group bytes -%.1f%%%n",
        workload.size(),
        before.files(),
        before.fileBytes(),
        before.rowGroups(),
        before.rowGroupBytes(),
        before.tableFiles(),
        before.tableBytes(),
        after.files(),
        after.fileBytes(),
        after.rowGroups(),
        after.rowGroupBytes(),
        after.tableFiles(),
        after.tableBytes(),
        100.0 * (1 - (double) after.fileBytes() / before.fileBytes()),
        100.0 * (1 - (double) after.rowGroupBytes() / before.rowGroupBytes()));
  }
}
