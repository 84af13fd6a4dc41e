package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * How the rewritten groups reached the table.
 *
 * @param committedGroups file groups whose new files are in the table ({@code committed_groups})
 * @param retriedGroups committed groups that were re-validated and retried after a commit conflict
 *     ({@code retried_groups})
 * @param rebasedGroups committed groups whose concurrent position deletes were rewritten against
 *     the new files ({@code rebased_groups})
 * @param droppedGroups file groups left out because a concurrent change invalidated their inputs,
 *     their commit failed, or (with partial progress) their rewrite failed; their new files were
 *     deleted ({@code dropped_groups})
 * @param dropReasons one line per dropped group ({@code drop_reasons})
 * @param commits snapshots committed ({@code commits}); more than one with partial progress
 * @param failedCommits commits that failed for good ({@code failed_commits})
 * @param failedDataFiles input data files of the dropped groups, left in the table as they were
 *     ({@code failed_data_files}, Iceberg's {@code failed_data_files_count})
 * @param commitConflicts file groups a concurrent change conflicted with: retried after a failed
 *     commit, re-based onto concurrent position deletes, or dropped ({@code commit_conflicts})
 * @param commitRetries commit attempts made again after a conflict ({@code commit_retries})
 */
public record CommitFigures(
    int committedGroups,
    int retriedGroups,
    int rebasedGroups,
    int droppedGroups,
    List<String> dropReasons,
    int commits,
    int failedCommits,
    int failedDataFiles,
    int commitConflicts,
    int commitRetries) {
  public static final CommitFigures NONE = new CommitFigures(0, 0, 0, 0, List.of(), 0, 0, 0, 0, 0);

  public CommitFigures {
    dropReasons = List.copyOf(requireNonNull(dropReasons, "dropReasons is null"));
  }
}
