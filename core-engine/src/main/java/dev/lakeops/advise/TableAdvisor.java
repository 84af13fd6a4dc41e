package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.advise.SortAdvisor;
import dev.lakeops.telemetry.advise.SortAdvisorOptions;
import dev.lakeops.telemetry.store.TelemetryStore;
import java.time.Clock;
import org.apache.iceberg.Table;

/**
 * Advises a layout for an Iceberg table: telemetry from the store, column statistics from the
 * table's metadata ({@link IcebergColumnStatistics}), the table named as {@link TelemetryTableNames}
 * says.
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

  public SortAdvice advise(Table table) {
    requireNonNull(table, "table is null");
    return new SortAdvisor(store, new IcebergColumnStatistics(table), options, clock)
        .advise(TelemetryTableNames.match(table));
  }
}
