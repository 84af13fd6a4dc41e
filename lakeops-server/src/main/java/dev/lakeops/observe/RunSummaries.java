package dev.lakeops.observe;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.operation.MaintenanceOperation;
import java.time.Instant;
import java.util.Optional;

/** Builds {@link RunSummary} values from ledger rows and from what the core's operations return. */
public final class RunSummaries {
  private RunSummaries() {}

  /** A ledger row. */
  public static RunSummary of(RunRecord run) {
    return new RunSummary(
        run.runId(),
        run.table(),
        run.operation(),
        run.start().reason(),
        run.start().host().label(),
        run.started(),
        run.finished(),
        run.status().label(),
        run.error(),
        run.figures().inputFiles(),
        run.figures().outputFiles(),
        run.figures().inputBytes(),
        run.figures().outputBytes(),
        run.figures().peakMemoryBytes(),
        run.figures().commitConflicts(),
        run.figures().snapshotId(),
        run.figures().cost(),
        run.figures().verifiedRows(),
        run.figures().verificationFailures());
  }

  /** A finished compaction, with its commit conflicts. */
  public static RunSummary compaction(
      String runId,
      String table,
      String reason,
      String host,
      Instant started,
      CompactionResult result) {
    return new RunSummary(
        runId,
        table,
        MaintenanceOperation.COMPACT.commandName(),
        reason,
        host,
        started,
        Optional.of(started.plus(result.elapsed())),
        "succeeded",
        Optional.empty(),
        result.inputFiles(),
        result.outputFiles(),
        result.inputBytes(),
        result.outputBytes(),
        result.peakMemoryBytes(),
        commitConflicts(result),
        result.snapshotId(),
        result.cost(),
        result.verifiedRows(),
        result.verificationFailures());
  }

  /**
   * File groups a concurrent change conflicted with: retried after a failed commit, re-based or
   * dropped.
   */
  public static long commitConflicts(CompactionResult result) {
    return result.commitConflicts();
  }
}
