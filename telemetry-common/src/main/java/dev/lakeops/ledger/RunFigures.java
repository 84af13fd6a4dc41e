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
 * @param verification how a compaction verified its rewritten groups before the commit ({@code
 *     counts}, {@code checksum} or {@code off}); empty for other operations and older runs
 * @param verifiedRows rows of the committed groups, each of which passed verification
 * @param verificationFailures file groups that failed verification and were not committed
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
    RunCost cost,
    String verification,
    long verifiedRows,
    long verificationFailures) {
  /** A run that read, wrote and committed nothing. */
  public static final RunFigures NONE = new RunFigures(0, 0, 0, 0, 0, 0, 0, OptionalLong.empty());

  public RunFigures {
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(cost, "cost is null");
    requireNonNull(verification, "verification is null");
  }

  /** A run that verified nothing. */
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
      long commitRetries,
      RunCost cost) {
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
        cost,
        "",
        0,
        0);
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
        cost,
        verification,
        verifiedRows,
        verificationFailures);
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
        runCost,
        verification,
        verifiedRows,
        verificationFailures);
  }

  /**
   * These figures with the run's verification {@code mode}, its {@code rows} verified and its
   * {@code failures}: groups that failed verification.
   */
  public RunFigures withVerification(String mode, long rows, long failures) {
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
        cost,
        mode,
        rows,
        failures);
  }
}
