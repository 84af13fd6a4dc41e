package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.commit.PositionDeleteRebaser.RebasedGroup;
import dev.lakeops.io.ManifestReads;
import dev.lakeops.lock.RenewalGuard;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Commits batches of rewritten groups with Iceberg's {@code RewriteFiles}, always validating from
 * the plan's starting snapshot. A conflict ({@link ValidationException} or {@link
 * CommitFailedException}) re-reads what changed since the start, re-bases new position deletes
 * against the inputs of groups the decode-free merge wrote onto their new files ({@link
 * PositionDeleteRebaser}), drops the other groups whose inputs were removed or got new deletes
 * (deleting their new files) and retries the rest with backoff. Delete files whose every target
 * data file has been rewritten by this run are removed in the same commit. After a clean failure
 * the batch's new files are deleted; after {@link CommitStateUnknownException} nothing is. Not
 * thread-safe: one committer per compaction, called from one thread.
 */
public final class RewriteCommitter {
  /** Snapshot summary key marking LakeOps compaction commits. */
  public static final String OPERATION_PROPERTY = "lakeops.operation";

  /**
   * Snapshot summary key holding the id of the snapshot the compaction was planned from: writer
   * commits after it landed while the compaction ran and were not part of it.
   */
  public static final String STARTING_SNAPSHOT_PROPERTY = "lakeops.starting-snapshot-id";

  /** Snapshot summary key holding a unique id per commit, used to find the snapshot afterwards. */
  public static final String COMMIT_ID_PROPERTY = "lakeops.commit-id";

  private final Table table;
  private final RewritePlan plan;
  private final CommitRetryPolicy retryPolicy;
  private final RenewalGuard renewals;
  private final Set<String> committedDataPaths = new HashSet<>();
  private final Set<String> removedDeletePaths = new HashSet<>();
  private final Set<Long> ownSnapshots = new HashSet<>();
  private final PositionDeleteRebaser rebaser;

  public RewriteCommitter(Table table, RewritePlan plan) {
    this(table, plan, CommitRetryPolicy.DEFAULT);
  }

  public RewriteCommitter(Table table, RewritePlan plan, CommitRetryPolicy retryPolicy) {
    this(table, plan, retryPolicy, RenewalGuard.NONE);
  }

  /**
   * @param renewals the compaction lock held while committing: each commit runs while its lease
   *     renewal waits, so the two never conflict
   */
  public RewriteCommitter(
      Table table, RewritePlan plan, CommitRetryPolicy retryPolicy, RenewalGuard renewals) {
    this.table = requireNonNull(table, "table is null");
    this.plan = requireNonNull(plan, "plan is null");
    this.retryPolicy = requireNonNull(retryPolicy, "retryPolicy is null");
    this.renewals = requireNonNull(renewals, "renewals is null");
    this.rebaser = new PositionDeleteRebaser(table);
  }

  /**
   * Commits {@code groups} as one snapshot, dropping groups a concurrent change invalidated.
   *
   * @throws RewriteCommitException when retries are exhausted; the batch's files were deleted
   * @throws CommitStateUnknownException as Iceberg threw it; no file was deleted
   */
  public CommitOutcome commit(List<RewrittenGroup> groups) {
    return commit(groups, false);
  }

  /**
   * Commits {@code groups} as {@link #commit(List)} does; {@code last} marks the run's last commit,
   * which carries the release of a lease kept in the table's properties (one Iceberg transaction),
   * so that the release adds no metadata version.
   */
  public CommitOutcome commit(List<RewrittenGroup> groups, boolean last) {
    boolean releasing = last && renewals.releasesInLastCommit();
    List<RewrittenGroup> pending = new ArrayList<>(groups);
    List<DroppedGroup> dropped = new ArrayList<>();
    List<RebasedGroup> rebased = new ArrayList<>();
    int conflicts = 0;
    for (int attempt = 1; ; attempt++) {
      Set<DeleteFile> removedDeletes;
      RewriteFiles rewrite;
      Transaction transaction = null;
      String commitId = UUID.randomUUID().toString();
      try {
        table.refresh();
        discard(rebased, null);
        Optional<ConcurrentChanges> changes = changesSinceStart();
        changes.ifPresent(concurrent -> dropOrRebase(pending, concurrent, dropped, rebased));
        if (pending.isEmpty()) {
          return new CommitOutcome(
              OptionalLong.empty(),
              List.of(),
              0,
              dropped,
              0,
              attempt - 1,
              0,
              dropped.size(),
              conflicts);
        }
        removedDeletes = removableDeletes(pending, changes);
        transaction = releasing ? table.newTransaction() : null;
        rewrite = prepare(transaction, pending, removedDeletes, rebased);
        rewrite.set(COMMIT_ID_PROPERTY, commitId);
      } catch (RuntimeException e) {
        OutputCleaner.deleteQuietly(table.io(), addedFiles(pending), e);
        discard(rebased, e);
        throw e;
      }
      try {
        if (transaction == null) {
          renewals.withoutRenewal(rewrite::commit);
        } else {
          rewrite.commit();
          renewals.commitReleasing(transaction);
        }
      } catch (CommitStateUnknownException e) {
        throw e;
      } catch (ValidationException | CommitFailedException e) {
        conflicts++;
        discard(rebased, e);
        if (attempt >= retryPolicy.maxAttempts()) {
          throw failed(
              pending,
              "Commit of "
                  + pending.size()
                  + " file groups of "
                  + table.name()
                  + " still conflicted after "
                  + attempt
                  + " attempts; their new files were deleted",
              e,
              conflicts - 1);
        }
        pause(pending, conflicts, e);
        continue;
      } catch (RuntimeException e) {
        OutputCleaner.deleteQuietly(table.io(), addedFiles(pending), e);
        discard(rebased, e);
        throw e;
      }
      // committed: from here on nothing may delete the new files
      OptionalLong snapshotId = committedSnapshot(commitId);
      snapshotId.ifPresent(ownSnapshots::add);
      removedDeletes.forEach(delete -> removedDeletePaths.add(delete.location()));
      rebased.forEach(
          group -> group.sources().forEach(source -> removedDeletePaths.add(source.location())));
      pending.forEach(
          group ->
              group
                  .group()
                  .tasks()
                  .forEach(task -> committedDataPaths.add(task.file().location())));
      // rebased groups are among the pending ones, which all count when a commit attempt conflicted
      int conflicted = (conflicts > 0 ? pending.size() : rebased.size()) + dropped.size();
      return new CommitOutcome(
          snapshotId,
          pending,
          conflicts > 0 ? pending.size() : 0,
          dropped,
          removedDeletes.size(),
          attempt,
          rebased.size(),
          conflicted,
          conflicts);
    }
  }

  /** Deletes the (never committed) re-based delete files of an attempt and forgets them. */
  private void discard(List<RebasedGroup> rebased, Throwable cause) {
    OutputCleaner.deleteQuietly(
        table.io(), rebased.stream().flatMap(group -> group.deleteFile().stream()).toList(), cause);
    rebased.clear();
  }

  private Optional<ConcurrentChanges> changesSinceStart() {
    Snapshot current = table.currentSnapshot();
    if (current != null && current.snapshotId() == plan.startingSnapshotId()) {
      return Optional.empty();
    }
    return Optional.of(ConcurrentChanges.since(table, plan.startingSnapshotId(), ownSnapshots));
  }

  /**
   * Drops the groups a concurrent change invalidated, except those whose only conflict is new
   * position deletes against inputs that {@link PositionDeleteRebaser} can re-base onto the new
   * files: those stay, with their re-based deletes in {@code rebased}.
   */
  private void dropOrRebase(
      List<RewrittenGroup> pending,
      ConcurrentChanges changes,
      List<DroppedGroup> dropped,
      List<RebasedGroup> rebased) {
    boolean startingSequence = plan.options().useStartingSequenceNumber();
    List<RewrittenGroup> invalid = new ArrayList<>();
    for (RewrittenGroup group : pending) {
      Optional<String> conflict = changes.conflictOf(group.group(), startingSequence);
      if (conflict.isEmpty()) {
        continue;
      }
      Optional<RebasedGroup> rebase =
          changes.conflictOfBesidesPositionDeletes(group.group(), startingSequence).isEmpty()
              ? rebaser.rebase(group, changes.addedPositionDeletesFor(group.group()))
              : Optional.empty();
      if (rebase.isPresent()) {
        rebased.add(rebase.get());
      } else {
        invalid.add(group);
        dropped.add(new DroppedGroup(group, conflict.get()));
      }
    }
    pending.removeAll(invalid);
    OutputCleaner.deleteQuietly(table.io(), addedFiles(invalid), null);
  }

  /**
   * Delete files of {@code pending} whose every target (as planned) is rewritten once this batch
   * commits. Equality deletes are kept when another writer added data files since the start: a
   * rewrite committed with an old sequence number could make them apply again; the dangling-delete
   * pass, which plans afresh, removes them later.
   */
  private Set<DeleteFile> removableDeletes(
      List<RewrittenGroup> pending, Optional<ConcurrentChanges> changes) {
    if (!plan.options().removeDanglingDeletes()) {
      return Set.of();
    }
    Set<String> rewritten = new HashSet<>(committedDataPaths);
    Map<String, DeleteFile> referenced = new LinkedHashMap<>();
    for (RewrittenGroup group : pending) {
      for (FileScanTask task : group.group().tasks()) {
        rewritten.add(task.file().location());
        task.deletes().forEach(delete -> referenced.putIfAbsent(delete.location(), delete));
      }
    }
    boolean foreignData = changes.map(ConcurrentChanges::foreignDataFilesAdded).orElse(false);
    Set<String> goneElsewhere = changes.map(ConcurrentChanges::removedDeleteFiles).orElse(Set.of());
    Set<DeleteFile> removable = new HashSet<>();
    for (DeleteFile delete : referenced.values()) {
      Set<String> targets = plan.dataFilesByDeleteFile().getOrDefault(delete.location(), Set.of());
      boolean gone =
          removedDeletePaths.contains(delete.location())
              || goneElsewhere.contains(delete.location());
      boolean risky = delete.content() == FileContent.EQUALITY_DELETES && foreignData;
      if (!gone && !risky && rewritten.containsAll(targets)) {
        removable.add(delete);
      }
    }
    return removable;
  }

  /**
   * The commit of {@code groups}. With re-based groups it validates from the snapshot the
   * concurrent changes were read up to (those were checked group by group, and Iceberg would reject
   * the re-based position deletes as new deletes for replaced files); otherwise from the start.
   */
  private RewriteFiles prepare(
      Transaction transaction,
      List<RewrittenGroup> groups,
      Set<DeleteFile> removedDeletes,
      List<RebasedGroup> rebased) {
    long validateFrom =
        rebased.isEmpty() ? plan.startingSnapshotId() : table.currentSnapshot().snapshotId();
    RewriteFiles rewrite =
        ManifestReads.scanned(
            (transaction == null ? table.newRewrite() : transaction.newRewrite())
                .validateFromSnapshot(validateFrom),
            table);
    if (plan.options().useStartingSequenceNumber()) {
      rewrite.dataSequenceNumber(plan.startingSequenceNumber());
    }
    for (RewrittenGroup group : groups) {
      group.group().tasks().forEach(task -> rewrite.deleteFile(task.file()));
      group.addedFiles().forEach(rewrite::addFile);
    }
    removedDeletes.forEach(rewrite::deleteFile);
    for (RebasedGroup group : rebased) {
      group.sources().forEach(rewrite::deleteFile);
      group.deleteFile().ifPresent(rewrite::addFile);
    }
    rewrite.set(OPERATION_PROPERTY, MaintenanceOperation.COMPACT.commandName());
    rewrite.set(STARTING_SNAPSHOT_PROPERTY, Long.toString(plan.startingSnapshotId()));
    return rewrite;
  }

  /** The snapshot carrying {@code commitId}; empty only if it is no longer in the history. */
  private OptionalLong committedSnapshot(String commitId) {
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      if (commitId.equals(snapshot.summary().get(COMMIT_ID_PROPERTY))) {
        return OptionalLong.of(snapshot.snapshotId());
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    return OptionalLong.empty();
  }

  private void pause(List<RewrittenGroup> pending, int conflicts, RuntimeException conflict) {
    try {
      Thread.sleep(retryPolicy.backoff(conflicts).toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      conflict.addSuppressed(interrupted);
      throw failed(
          pending,
          "Interrupted while retrying a commit of " + table.name() + "; the new files were deleted",
          conflict,
          conflicts - 1);
    }
  }

  private RewriteCommitException failed(
      List<RewrittenGroup> pending, String message, RuntimeException cause, int retries) {
    RewriteCommitException failure =
        new RewriteCommitException(message + ": " + cause.getMessage(), cause, retries);
    OutputCleaner.deleteQuietly(table.io(), addedFiles(pending), failure);
    return failure;
  }

  private static List<DataFile> addedFiles(List<RewrittenGroup> groups) {
    return groups.stream().flatMap(group -> group.addedFiles().stream()).toList();
  }
}
