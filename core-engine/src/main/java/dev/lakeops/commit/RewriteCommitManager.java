package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.io.FileIO;

/**
 * Receives rewritten groups as they finish and decides when to commit them. Without partial
 * progress every group is committed in one snapshot at the end. With {@code
 * partial-progress.enabled} groups are committed in batches of {@code ceil(groups /
 * partial-progress.max-commits)} while other groups are still being rewritten; a failed batch is
 * reported as dropped groups and the run goes on until more than {@code
 * partial-progress.max-failed-commits} batches failed; a group whose rewrite fails is reported as a
 * failed group and the others go on. Called from one thread.
 */
public final class RewriteCommitManager {
  private final RewriteCommitter committer;
  private final FileIO io;
  private final boolean partialProgress;
  private final int batchSize;
  private final int maxFailedCommits;
  private final List<RewrittenGroup> buffered = new ArrayList<>();
  private final List<Long> snapshotIds = new ArrayList<>();
  private final List<RewrittenGroup> committed = new ArrayList<>();
  private final List<DroppedGroup> dropped = new ArrayList<>();
  private final List<FailedGroup> failed = new ArrayList<>();
  private int retriedGroups;
  private int removedDeleteFiles;
  private int failedCommits;
  private int rebasedGroups;
  private int conflictedGroups;
  private int retries;

  public RewriteCommitManager(
      RewriteCommitter committer, FileIO io, RewriteOptions options, int groupCount) {
    this.committer = requireNonNull(committer, "committer is null");
    this.io = requireNonNull(io, "io is null");
    requireNonNull(options, "options is null");
    this.partialProgress = options.partialProgressEnabled();
    int commits = Math.max(1, Math.min(options.partialProgressMaxCommits(), groupCount));
    this.batchSize = partialProgress ? (groupCount + commits - 1) / commits : Integer.MAX_VALUE;
    this.maxFailedCommits = options.partialProgressMaxFailedCommits();
  }

  /** Takes ownership of {@code group}'s files: they are committed, or deleted if they cannot be. */
  public void accept(RewrittenGroup group) {
    buffered.add(requireNonNull(group, "group is null"));
    if (buffered.size() >= batchSize) {
      commitBuffered(false);
    }
  }

  /** Commits what is left and returns every commit's figures. */
  public CommitSummary finish() {
    if (!buffered.isEmpty()) {
      commitBuffered(true);
    }
    return new CommitSummary(
        snapshotIds,
        committed,
        retriedGroups,
        dropped,
        removedDeleteFiles,
        failedCommits,
        rebasedGroups,
        failed,
        conflictedGroups,
        retries);
  }

  /**
   * The rewrite of {@code group} failed (it cleaned up its own files). With partial progress it is
   * reported as a failed group and the run goes on; without, {@code failure} ends the run.
   */
  public void rewriteFailed(FileGroup group, RuntimeException failure) {
    requireNonNull(group, "group is null");
    requireNonNull(failure, "failure is null");
    if (!partialProgress) {
      throw failure;
    }
    String message =
        failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    failed.add(new FailedGroup(group, message.lines().findFirst().orElse(message)));
  }

  /** Deletes the files of groups received but not yet committed; committed groups stay. */
  public void abort(Throwable cause) {
    OutputCleaner.deleteQuietly(
        io, buffered.stream().flatMap(group -> group.addedFiles().stream()).toList(), cause);
    buffered.clear();
  }

  /** Commits the buffered groups; {@code last}: the run's last commit (see RewriteCommitter). */
  private void commitBuffered(boolean last) {
    List<RewrittenGroup> batch = List.copyOf(buffered);
    buffered.clear();
    CommitOutcome outcome;
    try {
      outcome = committer.commit(batch, last);
    } catch (RewriteCommitException e) {
      if (!partialProgress) {
        throw e;
      }
      failedCommits++;
      conflictedGroups += batch.size();
      retries += e.retries();
      batch.forEach(
          group ->
              dropped.add(new DroppedGroup(group, "its batch commit failed: " + e.getMessage())));
      if (failedCommits > maxFailedCommits) {
        throw new RewriteCommitException(
            failedCommits
                + " partial-progress commits of "
                + (snapshotIds.size() + failedCommits)
                + " failed, more than "
                + RewriteOptions.PARTIAL_PROGRESS_MAX_FAILED_COMMITS
                + " ("
                + maxFailedCommits
                + "); "
                + committed.size()
                + " file groups stay committed",
            e);
      }
      return;
    }
    outcome.snapshotId().ifPresent(snapshotIds::add);
    committed.addAll(outcome.committedGroups());
    dropped.addAll(outcome.droppedGroups());
    retriedGroups += outcome.retriedGroups();
    removedDeleteFiles += outcome.removedDeleteFiles();
    rebasedGroups += outcome.rebasedGroups();
    conflictedGroups += outcome.conflictedGroups();
    retries += outcome.retries();
  }
}
