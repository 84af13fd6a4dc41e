package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeWrapper;

/**
 * What other writers changed between the plan's starting snapshot and the table's current snapshot:
 * data files removed, delete files added and removed, data files added. Used after a conflict to
 * tell, per file group, whether its inputs are still valid.
 */
final class ConcurrentChanges {
  private static final int PATH_FIELD_ID = MetadataColumns.DELETE_FILE_PATH.fieldId();

  private final boolean startingSnapshotLost;
  private final Map<String, String> removedDataFiles;
  private final List<DeleteFile> addedDeleteFiles;
  private final Map<DeleteFile, String> addedBy;
  private final Set<String> removedDeleteFiles;
  private final boolean foreignDataFilesAdded;

  private ConcurrentChanges(
      boolean startingSnapshotLost,
      Map<String, String> removedDataFiles,
      List<DeleteFile> addedDeleteFiles,
      Map<DeleteFile, String> addedBy,
      Set<String> removedDeleteFiles,
      boolean foreignDataFilesAdded) {
    this.startingSnapshotLost = startingSnapshotLost;
    this.removedDataFiles = removedDataFiles;
    this.addedDeleteFiles = addedDeleteFiles;
    this.addedBy = addedBy;
    this.removedDeleteFiles = removedDeleteFiles;
    this.foreignDataFilesAdded = foreignDataFilesAdded;
  }

  /**
   * Reads the snapshots after {@code startingSnapshotId} up to the table's current one (the table
   * must be refreshed). Snapshots in {@code ownSnapshots} were committed by this run.
   */
  static ConcurrentChanges since(Table table, long startingSnapshotId, Set<Long> ownSnapshots) {
    requireNonNull(table, "table is null");
    Map<String, String> removedData = new HashMap<>();
    List<DeleteFile> addedDeletes = new ArrayList<>();
    Map<DeleteFile, String> addedBy = new HashMap<>();
    Set<String> removedDeletes = new HashSet<>();
    boolean foreignData = false;
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null && snapshot.snapshotId() != startingSnapshotId) {
      String label = "snapshot " + snapshot.snapshotId() + " (" + snapshot.operation() + ")";
      for (DataFile removed : snapshot.removedDataFiles(table.io())) {
        removedData.putIfAbsent(removed.location(), label);
      }
      for (DeleteFile added : snapshot.addedDeleteFiles(table.io())) {
        addedDeletes.add(added);
        addedBy.put(added, label);
      }
      for (DeleteFile removed : snapshot.removedDeleteFiles(table.io())) {
        removedDeletes.add(removed.location());
      }
      if (!ownSnapshots.contains(snapshot.snapshotId())
          && snapshot.addedDataFiles(table.io()).iterator().hasNext()) {
        foreignData = true;
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    return new ConcurrentChanges(
        snapshot == null, removedData, addedDeletes, addedBy, removedDeletes, foreignData);
  }

  /** True when the starting snapshot is no longer an ancestor (rollback, replace, expiry). */
  boolean startingSnapshotLost() {
    return startingSnapshotLost;
  }

  /** Delete files removed since the start, by anyone; they must not be removed again. */
  Set<String> removedDeleteFiles() {
    return removedDeleteFiles;
  }

  /** Whether another writer added data files since the start. */
  boolean foreignDataFilesAdded() {
    return foreignDataFilesAdded;
  }

  /**
   * Why {@code group} can no longer be committed, or empty if its inputs are unchanged. Equality
   * deletes added since the start do not invalidate a group whose new files carry the starting
   * sequence number: they still apply to the new files.
   */
  Optional<String> conflictOf(FileGroup group, boolean newFilesUseStartingSequenceNumber) {
    return conflictOf(group, newFilesUseStartingSequenceNumber, false);
  }

  /**
   * Like {@link #conflictOf(FileGroup, boolean)}, but leaving out position delete files (not
   * deletion vectors) added against the group's inputs: empty means those are the only conflict,
   * and re-basing them onto the new files would make the group valid again.
   */
  Optional<String> conflictOfBesidesPositionDeletes(
      FileGroup group, boolean newFilesUseStartingSequenceNumber) {
    return conflictOf(group, newFilesUseStartingSequenceNumber, true);
  }

  /**
   * Position delete files and deletion vectors added since the start that may apply to the group's
   * inputs.
   */
  List<DeleteFile> addedPositionDeletesFor(FileGroup group) {
    List<DeleteFile> applying = new ArrayList<>();
    for (DeleteFile delete : addedDeleteFiles) {
      if (delete.content() == FileContent.POSITION_DELETES
          && group.tasks().stream().anyMatch(task -> applies(delete, task, group))) {
        applying.add(delete);
      }
    }
    return applying;
  }

  private Optional<String> conflictOf(
      FileGroup group, boolean newFilesUseStartingSequenceNumber, boolean besidesPositionDeletes) {
    if (startingSnapshotLost) {
      return Optional.of("the starting snapshot is no longer in the table's history");
    }
    for (FileScanTask task : group.tasks()) {
      String path = task.file().location();
      String remover = removedDataFiles.get(path);
      if (remover != null) {
        return Optional.of("input file " + path + " was removed by " + remover);
      }
    }
    for (DeleteFile delete : addedDeleteFiles) {
      if (delete.content() == FileContent.EQUALITY_DELETES && newFilesUseStartingSequenceNumber) {
        continue;
      }
      if (besidesPositionDeletes
          && delete.content() == FileContent.POSITION_DELETES
          && !ContentFileUtil.isDV(delete)) {
        continue;
      }
      for (FileScanTask task : group.tasks()) {
        if (applies(delete, task, group)) {
          return Optional.of(
              "new "
                  + describe(delete)
                  + " "
                  + delete.location()
                  + " for input file "
                  + task.file().location()
                  + " was added by "
                  + addedBy.get(delete));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean applies(DeleteFile delete, FileScanTask task, FileGroup group) {
    String path = task.file().location();
    if (delete.content() == FileContent.POSITION_DELETES && delete.referencedDataFile() != null) {
      return delete.referencedDataFile().equals(path);
    }
    Types.StructType partitionType = task.spec().partitionType();
    boolean samePartition =
        delete.specId() == group.specId()
            && StructLikeWrapper.forType(partitionType)
                .set(delete.partition())
                .equals(StructLikeWrapper.forType(partitionType).set(group.partition()));
    if (delete.content() == FileContent.EQUALITY_DELETES) {
      // a delete of another spec may be global (unpartitioned): treat it as applying
      return samePartition || delete.specId() != group.specId();
    }
    return samePartition && mayContainPath(delete, path);
  }

  private static boolean mayContainPath(DeleteFile delete, String path) {
    if (delete.lowerBounds() == null || delete.upperBounds() == null) {
      return true;
    }
    ByteBuffer lower = delete.lowerBounds().get(PATH_FIELD_ID);
    ByteBuffer upper = delete.upperBounds().get(PATH_FIELD_ID);
    if (lower == null || upper == null) {
      return true;
    }
    CharSequence low = Conversions.fromByteBuffer(Types.StringType.get(), lower);
    CharSequence high = Conversions.fromByteBuffer(Types.StringType.get(), upper);
    return Comparators.charSequences().compare(low, path) <= 0
        && Comparators.charSequences().compare(path, high) <= 0;
  }

  private static String describe(DeleteFile delete) {
    if (delete.content() == FileContent.EQUALITY_DELETES) {
      return "equality delete file";
    }
    return ContentFileUtil.isDV(delete) ? "deletion vector" : "position delete file";
  }
}
