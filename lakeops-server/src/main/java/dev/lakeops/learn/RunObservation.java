package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * One finished compaction as the planner learns from it.
 *
 * @param table the table
 * @param path the rewrite path it took
 * @param started when it started
 * @param inputBytes bytes it rewrote
 * @param duration its wall time
 * @param peakMemoryBytes its peak memory
 * @param cores file groups it rewrote at once (at most the machine's cores)
 * @param commitConflicts commits that failed on a concurrent change
 * @param memoryShareBytes the memory it was given
 */
public record RunObservation(
    String table,
    RewritePath path,
    Instant started,
    long inputBytes,
    Duration duration,
    long peakMemoryBytes,
    int cores,
    long commitConflicts,
    long memoryShareBytes) {
  public RunObservation {
    requireNonNull(table, "table is null");
    requireNonNull(path, "path is null");
    requireNonNull(started, "started is null");
    requireNonNull(duration, "duration is null");
    if (cores < 1) {
      throw new IllegalArgumentException("A run uses at least one core, got " + cores);
    }
  }

  /** Bytes per second per core. */
  public double throughputPerCore() {
    double seconds = Math.max(duration.toNanos() / 1e9, 1e-3);
    return inputBytes / seconds / cores;
  }

  /** The share of the memory it was given that it held at its peak. */
  public double memoryUseOfShare() {
    return peakMemoryBytes / (double) Math.max(1, memoryShareBytes);
  }

  /** Peak memory per input byte. */
  public double memoryPerInputByte() {
    return peakMemoryBytes / (double) Math.max(1, inputBytes);
  }
}
