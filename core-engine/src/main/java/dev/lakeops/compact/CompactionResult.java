package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a compaction did. Field names map one to one onto the CLI's {@code --json} output and the
 * host procedures' result columns.
 *
 * @param table the table's full name
 * @param strategy the strategy that ran
 * @param fileGroups how many file groups were planned
 * @param inputFiles data files rewritten ({@code rewritten_data_files_count})
 * @param outputFiles data files added ({@code added_data_files_count})
 * @param inputBytes bytes of the rewritten data files ({@code rewritten_bytes_count})
 * @param outputBytes bytes of the added data files
 * @param removedDeleteFiles delete files no longer referenced after the commit
 * @param elapsed wall time of the whole operation
 * @param peakMemoryBytes the highest amount of Arrow memory held at once
 * @param snapshotId the committed snapshot, empty for a dry run or when nothing was rewritten
 * @param copiedBytes input bytes that took the decode-free copy path
 * @param decodedBytes input bytes that were decoded and re-encoded
 * @param spilledBytes bytes the sort and zorder strategies wrote to spill files ({@code
 *     spilled_bytes}); 0 for binpack
 * @param spillFiles spill files (sorted runs) written ({@code spill_files}); all are deleted before
 *     the compaction returns
 * @param overlappingFiles for sort and zorder, the new files whose lower/upper bounds on the
 *     leading sort column strictly overlap another new file's in the same partition ({@code
 *     overlapping_files}); 0 for binpack
 * @param strategyReason why the auto strategy chose the strategy that ran ({@code
 *     strategy_reason}); empty for an explicit strategy
 * @param committedGroups file groups whose new files are in the table ({@code committed_groups})
 * @param retriedGroups committed groups that were re-validated and retried after a commit conflict
 *     ({@code retried_groups})
 * @param droppedGroups file groups left out because a concurrent change invalidated their inputs or
 *     their commit failed; their new files were deleted ({@code dropped_groups})
 * @param dropReasons one line per dropped group, e.g. {@code group 3 (day=2024-01-01): input file
 *     ... was removed by snapshot 42 (overwrite)}
 * @param commits snapshots committed (more than one with partial progress)
 * @param failedCommits partial-progress batch commits that failed
 * @param removedDanglingDeleteFiles delete files (position, equality, deletion vectors) removed
 *     after the rewrite because they no longer applied to any live data file ({@code
 *     remove-dangling-deletes})
 * @param rebasedGroups committed groups whose concurrent position deletes were re-based onto their
 *     new files instead of dropping the group ({@code rebased_groups})
 * @param dryRun whether this was only a plan
 */
public record CompactionResult(
    String table,
    String strategy,
    int fileGroups,
    int inputFiles,
    int outputFiles,
    long inputBytes,
    long outputBytes,
    int removedDeleteFiles,
    Duration elapsed,
    long peakMemoryBytes,
    OptionalLong snapshotId,
    long copiedBytes,
    long decodedBytes,
    long spilledBytes,
    int spillFiles,
    int overlappingFiles,
    String strategyReason,
    int committedGroups,
    int retriedGroups,
    int droppedGroups,
    List<String> dropReasons,
    int commits,
    int failedCommits,
    int removedDanglingDeleteFiles,
    int rebasedGroups,
    boolean dryRun) {
  public CompactionResult {
    requireNonNull(table, "table is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(elapsed, "elapsed is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(strategyReason, "strategyReason is null");
    dropReasons = List.copyOf(requireNonNull(dropReasons, "dropReasons is null"));
  }

  /** A result of an explicit strategy without commit figures (one commit, nothing retried or dropped). */
  public CompactionResult(
      String table,
      String strategy,
      int fileGroups,
      int inputFiles,
      int outputFiles,
      long inputBytes,
      long outputBytes,
      int removedDeleteFiles,
      Duration elapsed,
      long peakMemoryBytes,
      OptionalLong snapshotId,
      long copiedBytes,
      long decodedBytes,
      long spilledBytes,
      int spillFiles,
      int overlappingFiles,
      boolean dryRun) {
    this(
        table, strategy, fileGroups, inputFiles, outputFiles, inputBytes, outputBytes, removedDeleteFiles,
        elapsed, peakMemoryBytes, snapshotId, copiedBytes, decodedBytes, spilledBytes, spillFiles,
        overlappingFiles, "", snapshotId.isPresent() && !dryRun ? fileGroups : 0, 0, 0, List.of(),
        snapshotId.isPresent() && !dryRun ? 1 : 0, 0, 0, 0, dryRun);
  }

  /** This result reported under another strategy name, with the reason it was chosen. */
  public CompactionResult withStrategy(String strategyName, String reason) {
    return new CompactionResult(
        table, strategyName, fileGroups, inputFiles, outputFiles, inputBytes, outputBytes,
        removedDeleteFiles, elapsed, peakMemoryBytes, snapshotId, copiedBytes, decodedBytes,
        spilledBytes, spillFiles, overlappingFiles, reason, committedGroups, retriedGroups,
        droppedGroups, dropReasons, commits, failedCommits, removedDanglingDeleteFiles, rebasedGroups, dryRun);
  }

  /** A result without spill or layout figures, as binpack reports it. */
  public CompactionResult(
      String table,
      String strategy,
      int fileGroups,
      int inputFiles,
      int outputFiles,
      long inputBytes,
      long outputBytes,
      int removedDeleteFiles,
      Duration elapsed,
      long peakMemoryBytes,
      OptionalLong snapshotId,
      long copiedBytes,
      long decodedBytes,
      boolean dryRun) {
    this(
        table, strategy, fileGroups, inputFiles, outputFiles, inputBytes, outputBytes, removedDeleteFiles,
        elapsed, peakMemoryBytes, snapshotId, copiedBytes, decodedBytes, 0, 0, 0, dryRun);
  }
}
