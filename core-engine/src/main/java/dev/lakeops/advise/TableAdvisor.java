package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.advise.SortAdvisor;
import dev.lakeops.telemetry.advise.SortAdvisorOptions;
import dev.lakeops.telemetry.store.TelemetryStore;
import java.time.Clock;
import java.util.Map;
import org.apache.iceberg.Table;

/**
 * Advises a layout for an Iceberg table: telemetry from the store, found by the table's identity
 * ({@link TelemetryTableNames#match}); column statistics from the table's metadata ({@link
 * IcebergColumnStatistics}); then the layouts weighed against every recorded query class ({@link
 * WorkloadLayoutChooser}).
 */
public final class TableAdvisor {
  private final TelemetryStore store;
  private final SortAdvisorOptions options;
  private final Clock clock;

  public TableAdvisor(TelemetryStore store, SortAdvisorOptions options, Clock clock) {
    this.store = requireNonNull(store, "store is null");
    this.options = requireNonNull(options, "options is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public static TableAdvisor withDefaults(TelemetryStore store) {
    return new TableAdvisor(store, SortAdvisorOptions.defaults(), Clock.systemUTC());
  }

  /** The advice at the table's own target file size. */
  public SortAdvice advise(Table table) {
    requireNonNull(table, "table is null");
    return adviseWithCosts(table, RewriteOptions.parse(table, Map.of()).targetFileSizeBytes())
        .advice();
  }

  /** The advice with every layout weighed, for files of {@code targetFileSizeBytes}. */
  public TableAdvice adviseWithCosts(Table table, long targetFileSizeBytes) {
    requireNonNull(table, "table is null");
    SortAdvice ranked =
        new SortAdvisor(store, new IcebergColumnStatistics(table), options, clock)
            .advise(TelemetryTableNames.match(table));
    return new WorkloadLayoutChooser(WorkloadBuilder.PROBES_PER_COLUMN_DEFAULT)
        .choose(table, ranked, targetFileSizeBytes);
  }
}
