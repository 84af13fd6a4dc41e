package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;

/**
 * What a run read, wrote and committed. Operations fill what applies to them and leave the rest 0:
 * a snapshot expiry counts the files it deleted as {@code inputFiles}, an orphan removal the
 * orphans it deleted, a manifest rewrite the manifests it replaced and wrote.
 *
 * @param inputFiles files rewritten (compaction) or deleted (expiry, orphans) or manifests replaced
 * @param outputFiles files or manifests written
 * @param inputBytes bytes of the input files
 * @param outputBytes bytes written
 * @param removedDeleteFiles delete files the run dropped from the table
 * @param recompactedBytes input bytes that an earlier LakeOps compaction had written (a table whose
 *     compactions keep rewriting them does not converge)
 * @param peakMemoryBytes the memory budget's peak
 * @param snapshotId the last snapshot the run committed, empty when it committed none
 * @param commitConflicts file groups a concurrent change conflicted with (a compaction's groups
 *     retried after a failed commit, re-based or dropped)
 * @param commitRetries commit attempts made again after a conflict
 * @param cost object storage requests and bytes, requests in flight and CPU time while the run ran
 *     ({@link RunCost#NONE} when not measured)
 */
public record RunFigures(
    long inputFiles,
    long outputFiles,
    long inputBytes,
    long outputBytes,
    long removedDeleteFiles,
    long recompactedBytes,
    long peakMemoryBytes,
    OptionalLong snapshotId,
    long commitConflicts,
    long commitRetries,
    RunCost cost) {
  /** A run that read, wrote and committed nothing. */
  public static final RunFigures NONE = new RunFigures(0, 0, 0, 0, 0, 0, 0, OptionalLong.empty());

  public RunFigures {
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(cost, "cost is null");
  }

  /** A run whose cost was not measured. */
  public RunFigures(
      long inputFiles,
      long outputFiles,
      long inputBytes,
      long outputBytes,
      long removedDeleteFiles,
      long recompactedBytes,
      long peakMemoryBytes,
      OptionalLong snapshotId,
      long commitConflicts,
      long commitRetries) {
    this(
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        removedDeleteFiles,
        recompactedBytes,
        peakMemoryBytes,
        snapshotId,
        commitConflicts,
        commitRetries,
        RunCost.NONE);
  }

  /** A run without commit conflicts or retries. */
  public RunFigures(
      long inputFiles,
      long outputFiles,
      long inputBytes,
      long outputBytes,
      long removedDeleteFiles,
      long recompactedBytes,
      long peakMemoryBytes,
      OptionalLong snapshotId) {
    this(
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        removedDeleteFiles,
        recompactedBytes,
        peakMemoryBytes,
        snapshotId,
        0,
        0);
  }

  /** These figures with {@code conflicts} commit conflicts and {@code retries} retries. */
  public RunFigures withCommitConflicts(long conflicts, long retries) {
    return new RunFigures(
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        removedDeleteFiles,
        recompactedBytes,
        peakMemoryBytes,
        snapshotId,
        conflicts,
        retries,
        cost);
  }

  /** These figures with the run's {@code runCost}. */
  public RunFigures withCost(RunCost runCost) {
    return new RunFigures(
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        removedDeleteFiles,
        recompactedBytes,
        peakMemoryBytes,
        snapshotId,
        commitConflicts,
        commitRetries,
        runCost);
  }
}
