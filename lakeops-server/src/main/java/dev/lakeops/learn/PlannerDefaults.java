package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.Map;

/**
 * What the planner assumes of a table without history (and the bounds of what it learns).
 *
 * @param throughputPerCore bytes per second per core of each path
 * @param memoryPerInputByte peak memory per input byte of each path
 * @param minimumShare the least memory a compaction is given
 * @param headroom the share of memory given above the predicted peak (0.25: 25 % more)
 * @param cores the cores a run may use
 * @param smallerGroupBytes {@code max-file-group-size-bytes} for tables where conflicts were seen
 * @param window how many recent runs of a table and path the planner learns from
 */
public record PlannerDefaults(
    Map<RewritePath, Double> throughputPerCore,
    Map<RewritePath, Double> memoryPerInputByte,
    ByteSize minimumShare,
    double headroom,
    int cores,
    ByteSize smallerGroupBytes,
    int window) {
  public PlannerDefaults {
    throughputPerCore = Map.copyOf(requireNonNull(throughputPerCore, "throughputPerCore is null"));
    memoryPerInputByte =
        Map.copyOf(requireNonNull(memoryPerInputByte, "memoryPerInputByte is null"));
    requireNonNull(minimumShare, "minimumShare is null");
    requireNonNull(smallerGroupBytes, "smallerGroupBytes is null");
    for (RewritePath path : RewritePath.values()) {
      if (!throughputPerCore.containsKey(path) || !memoryPerInputByte.containsKey(path)) {
        throw new IllegalArgumentException(
            "Planner defaults need a throughput and a memory ratio for " + path.label());
      }
    }
  }

  /**
   * Throughputs measured on one core of a 2-core machine (docs/benchmarks/): copying ~200 MB/s,
   * decode and re-encode ~30 MB/s, external sort ~15 MB/s; memory ratios deliberately high, so a
   * table without history gets a generous share.
   */
  public static PlannerDefaults standard() {
    return new PlannerDefaults(
        Map.of(RewritePath.DECODE_FREE, 200e6, RewritePath.COLUMNAR, 30e6, RewritePath.SORT, 15e6),
        Map.of(RewritePath.DECODE_FREE, 0.5, RewritePath.COLUMNAR, 2.0, RewritePath.SORT, 3.0),
        ByteSize.ofMegabytes(64),
        0.25,
        Runtime.getRuntime().availableProcessors(),
        ByteSize.ofMegabytes(1024),
        5);
  }
}
