package dev.lakeops.telemetry.advise;

import dev.lakeops.telemetry.event.TableName;
import java.util.Map;
import java.util.Set;

/**
 * Per-column statistics of a table, for the advisor's cardinality weighting. core-engine implements
 * this from Iceberg metadata (Puffin NDV sketches, column bounds); this module never reads Iceberg.
 */
@FunctionalInterface
public interface ColumnStatisticsSource {
  /**
   * Statistics of the named columns of {@code table}. A column missing from the result has no
   * statistics and gets a neutral weight.
   */
  Map<String, ColumnStatistics> statistics(TableName table, Set<String> columns);

  /** A source that knows nothing: every column weighs the same. */
  static ColumnStatisticsSource none() {
    return (table, columns) -> Map.of();
  }

  /** A fixed map of column statistics, whatever the table: for tests and simple hosts. */
  static ColumnStatisticsSource of(Map<String, ColumnStatistics> statistics) {
    Map<String, ColumnStatistics> copy = Map.copyOf(statistics);
    return (table, columns) -> copy;
  }
}
