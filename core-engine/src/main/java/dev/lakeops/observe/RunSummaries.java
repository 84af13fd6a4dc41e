package dev.lakeops.observe;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.ledger.RunRecord;
import java.time.Instant;
import java.util.Optional;

/** Builds {@link RunSummary} values from ledger rows and from what the core's operations return. */
public final class RunSummaries {
  private RunSummaries() {}

  /** A ledger row; the ledger does not keep commit conflicts, so {@code commitConflicts} adds them. */
  public static RunSummary of(RunRecord run, long commitConflicts) {
    return new RunSummary(
        run.runId(), run.table(), run.operation(), run.start().reason(), run.start().host().label(),
        run.started(), run.finished(), run.status().label(), run.error(), run.figures().inputFiles(),
        run.figures().outputFiles(), run.figures().inputBytes(), run.figures().outputBytes(),
        run.figures().peakMemoryBytes(), commitConflicts, run.figures().snapshotId());
  }

  /**
   * A finished compaction. Its commit conflicts are the groups retried after a conflict plus the
   * groups dropped because a concurrent change invalidated them.
   */
  public static RunSummary compaction(
      String runId, String table, String reason, String host, Instant started, CompactionResult result) {
    return new RunSummary(
        runId, table, "compact", reason, host, started, Optional.of(started.plus(result.elapsed())),
        "succeeded", Optional.empty(), result.inputFiles(), result.outputFiles(), result.inputBytes(),
        result.outputBytes(), result.peakMemoryBytes(), commitConflicts(result), result.snapshotId());
  }

  /** Groups retried after a commit conflict plus groups dropped because of a concurrent change. */
  public static long commitConflicts(CompactionResult result) {
    return (long) result.retriedGroups() + result.droppedGroups();
  }
}
