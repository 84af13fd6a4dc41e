package dev.lakeops.deletes;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Iceberg's {@code remove-dangling-deletes}: removes every position delete file, equality delete
 * file and deletion vector of the current snapshot that Iceberg's scan planning attaches to no live
 * data file (its targets were rewritten or removed, or its sequence number is too old for every
 * data file left in its partition). Nothing is read or written but metadata; the commit validates
 * from the snapshot it planned from and re-plans after a conflict.
 */
public final class DanglingDeleteRemover {
  private static final System.Logger LOG = System.getLogger(DanglingDeleteRemover.class.getName());
  private static final int MAX_ATTEMPTS = 4;

  public DanglingDeleteResult remove(Table table, boolean dryRun) {
    requireNonNull(table, "table is null");
    long started = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      table.refresh();
      Snapshot snapshot = table.currentSnapshot();
      if (snapshot == null) {
        return new DanglingDeleteResult(
            table.name(), DeleteFileCounts.NONE, OptionalLong.empty(), elapsed(started), dryRun);
      }
      Map<String, DeleteFile> all = LiveDeleteFiles.all(table, snapshot);
      all.keySet().removeAll(LiveDeleteFiles.applying(table, snapshot));
      List<DeleteFile> dangling = List.copyOf(all.values());
      DeleteFileCounts counts = DeleteFileCounts.of(dangling);
      if (dryRun || dangling.isEmpty()) {
        return new DanglingDeleteResult(
            table.name(), counts, OptionalLong.empty(), elapsed(started), dryRun);
      }
      RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(snapshot.snapshotId());
      dangling.forEach(rewrite::deleteFile);
      rewrite.set("lakeops.operation", MaintenanceOperation.REMOVE_DANGLING_DELETES.commandName());
      try {
        rewrite.commit();
      } catch (ValidationException | CommitFailedException e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw e;
        }
        continue;
      }
      return new DanglingDeleteResult(
          table.name(),
          counts,
          OptionalLong.of(table.currentSnapshot().snapshotId()),
          elapsed(started),
          false);
    }
  }

  /**
   * The pass a compaction runs after its commits; returns the number of delete files removed. A
   * failure here leaves the compaction committed and is only logged: the next run removes them.
   */
  public static int removeAfterRewrite(Table table) {
    try {
      return new DanglingDeleteRemover().remove(table, false).removed().total();
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Could not remove dangling delete files of " + table.name() + ": " + e.getMessage(),
          e);
      return 0;
    }
  }

  private static Duration elapsed(long started) {
    return Duration.ofNanos(System.nanoTime() - started);
  }
}
