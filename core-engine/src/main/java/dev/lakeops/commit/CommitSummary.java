package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.RewrittenGroup;
import java.util.List;
import java.util.OptionalLong;

/**
 * Every commit of one compaction, added up.
 *
 * @param snapshotIds the snapshots committed, in order
 * @param committedGroups groups now in the table
 * @param retriedGroups committed groups that needed a retry after a conflict
 * @param droppedGroups groups left out, with the reason; their new files were deleted
 * @param removedDeleteFiles delete files removed because every data file they applied to was
 *     rewritten
 * @param failedCommits batch commits that failed (partial progress only; otherwise the failure is
 *     thrown)
 * @param rebasedGroups committed groups whose concurrent position deletes were re-based
 * @param failedGroups groups whose rewrite failed (partial progress only; otherwise the failure is
 *     thrown)
 * @param conflictedGroups groups a concurrent change conflicted with: retried, re-based or dropped,
 *     the groups of failed batch commits included
 * @param retries commit attempts made again after a conflict
 */
public record CommitSummary(
    List<Long> snapshotIds,
    List<RewrittenGroup> committedGroups,
    int retriedGroups,
    List<DroppedGroup> droppedGroups,
    int removedDeleteFiles,
    int failedCommits,
    int rebasedGroups,
    List<FailedGroup> failedGroups,
    int conflictedGroups,
    int retries) {
  public CommitSummary {
    snapshotIds = List.copyOf(requireNonNull(snapshotIds, "snapshotIds is null"));
    committedGroups = List.copyOf(requireNonNull(committedGroups, "committedGroups is null"));
    droppedGroups = List.copyOf(requireNonNull(droppedGroups, "droppedGroups is null"));
    failedGroups = List.copyOf(requireNonNull(failedGroups, "failedGroups is null"));
  }

  /**
   * Input data files of the groups left out: dropped after their rewrite, or whose rewrite failed.
   */
  public int failedDataFiles() {
    return droppedGroups.stream().mapToInt(dropped -> dropped.group().group().fileCount()).sum()
        + failedGroups.stream().mapToInt(failed -> failed.group().fileCount()).sum();
  }

  /** The last snapshot committed, empty when nothing was. */
  public OptionalLong lastSnapshotId() {
    return snapshotIds.isEmpty()
        ? OptionalLong.empty()
        : OptionalLong.of(snapshotIds.get(snapshotIds.size() - 1));
  }
}
