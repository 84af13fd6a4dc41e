package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.QueryClassUsage;

/**
 * What one query class reads now and would read under a layout, per query.
 *
 * @param queryClass the class: its filters, queries and weight
 * @param share the class's part of the weighted queries with filters, 0 to 1
 * @param probes the filters the figures are the mean over (0 when none could be built)
 * @param bytesNow row-group bytes a query of the class reads from the table as it is (measured)
 * @param bytesAfter bytes it would read under the layout (estimated by {@link LayoutCostModel})
 */
public record QueryClassEstimate(
    QueryClassUsage queryClass, double share, int probes, long bytesNow, long bytesAfter) {
  public QueryClassEstimate {
    requireNonNull(queryClass, "queryClass is null");
  }

  /** The change in bytes read, in percent: -90 reads a tenth, +100 reads twice as much. */
  public double changePercent() {
    return bytesNow == 0 ? (bytesAfter == 0 ? 0 : 100) : 100.0 * (bytesAfter - bytesNow) / bytesNow;
  }

  /** How many times what it reads now the class would read (1 when it reads nothing now). */
  public double ratio() {
    return bytesNow == 0
        ? (bytesAfter == 0 ? 1 : Double.POSITIVE_INFINITY)
        : (double) bytesAfter / bytesNow;
  }
}
