package dev.lakeops.observe;

import dev.lakeops.compact.CompactionResult;
import java.time.Instant;
import java.util.Optional;

/** Builds {@link RunSummary} values from what the core's operations return. */
public final class RunSummaries {
  private RunSummaries() {}

  /**
   * A finished compaction. Its commit conflicts are the groups retried after a conflict plus the
   * groups dropped because a concurrent change invalidated them.
   */
  public static RunSummary compaction(
      String runId, String table, String reason, String host, Instant started, CompactionResult result) {
    return new RunSummary(
        runId, table, "compact", reason, host, started, Optional.of(started.plus(result.elapsed())),
        "succeeded", Optional.empty(), result.inputFiles(), result.outputFiles(), result.inputBytes(),
        result.outputBytes(), result.peakMemoryBytes(), (long) result.retriedGroups() + result.droppedGroups(),
        result.snapshotId());
  }
}
