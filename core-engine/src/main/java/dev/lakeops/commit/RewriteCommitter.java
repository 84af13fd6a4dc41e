package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits rewritten groups with Iceberg's {@code RewriteFiles}, validating from the plan's starting
 * snapshot. Delete files whose every target data file is rewritten are removed in the same commit.
 * After a clean failure the new files are deleted; after an unknown commit state nothing is.
 */
public final class RewriteCommitter {
  private final Table table;
  private final RewritePlan plan;

  public RewriteCommitter(Table table, RewritePlan plan) {
    this.table = requireNonNull(table, "table is null");
    this.plan = requireNonNull(plan, "plan is null");
  }

  public CommitOutcome commit(List<RewrittenGroup> groups) {
    Set<DataFile> removedData = new HashSet<>();
    Set<String> removedPaths = new HashSet<>();
    Map<String, DeleteFile> referencedDeletes = new HashMap<>();
    Set<DataFile> added = new HashSet<>();
    for (RewrittenGroup group : groups) {
      for (FileScanTask task : group.group().tasks()) {
        removedData.add(task.file());
        removedPaths.add(task.file().location());
        task.deletes().forEach(delete -> referencedDeletes.putIfAbsent(delete.location(), delete));
      }
      added.addAll(group.addedFiles());
    }
    Set<DeleteFile> removedDeletes = new HashSet<>();
    if (plan.options().removeDanglingDeletes()) {
      for (DeleteFile delete : referencedDeletes.values()) {
        Set<String> targets = plan.dataFilesByDeleteFile().getOrDefault(delete.location(), Set.of());
        if (removedPaths.containsAll(targets)) {
          removedDeletes.add(delete);
        }
      }
    }

    RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(plan.startingSnapshotId());
    if (plan.options().useStartingSequenceNumber()) {
      rewrite.dataSequenceNumber(plan.startingSequenceNumber());
    }
    removedData.forEach(rewrite::deleteFile);
    removedDeletes.forEach(rewrite::deleteFile);
    added.forEach(rewrite::addFile);
    rewrite.set("lakeops.operation", "compact");
    try {
      rewrite.commit();
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), added, e);
      throw e;
    }
    Snapshot committed = table.currentSnapshot();
    return new CommitOutcome(committed.snapshotId(), removedDeletes.size());
  }

  /** What one commit did. */
  public record CommitOutcome(long snapshotId, int removedDeleteFiles) {}
}
