package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.RewrittenGroup;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one batch commit did.
 *
 * @param snapshotId the snapshot committed, empty when every group was dropped
 * @param committedGroups groups whose files are now in the table
 * @param retriedGroups of those, the groups committed only after a conflict and a retry
 * @param droppedGroups groups left out because a concurrent change invalidated their inputs
 * @param removedDeleteFiles delete files removed in the commit because every data file they applied
 *     to was rewritten
 * @param attempts commit attempts made
 * @param rebasedGroups of the committed groups, those whose concurrent position deletes were
 *     re-based onto their new files
 * @param conflictedGroups groups a concurrent change conflicted with: retried after a failed
 *     commit, re-based or dropped (each once)
 * @param retries commit attempts made again after a conflict
 */
public record CommitOutcome(
    OptionalLong snapshotId,
    List<RewrittenGroup> committedGroups,
    int retriedGroups,
    List<DroppedGroup> droppedGroups,
    int removedDeleteFiles,
    int attempts,
    int rebasedGroups,
    int conflictedGroups,
    int retries) {
  public CommitOutcome {
    requireNonNull(snapshotId, "snapshotId is null");
    committedGroups = List.copyOf(requireNonNull(committedGroups, "committedGroups is null"));
    droppedGroups = List.copyOf(requireNonNull(droppedGroups, "droppedGroups is null"));
  }
}
