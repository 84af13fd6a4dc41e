package dev.lakeops.health;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.PropertyUtil;

/** Reads {@link TableHealth} from a table's current snapshot. */
public final class TableHealthInspector {
  private static final double SMALL_FILE_RATIO = 0.75;

  private TableHealthInspector() {}

  public static TableHealth inspect(Table table) {
    long target =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
    long snapshots = table.currentSnapshot() == null ? 0 : sizeOf(table.snapshots());
    if (table.currentSnapshot() == null) {
      return new TableHealth(0, 0, 0, target, 0, 0, 0, snapshots, 0);
    }
    long files = 0;
    long bytes = 0;
    long small = 0;
    long records = 0;
    Set<String> positionDeletes = new HashSet<>();
    Set<String> equalityDeletes = new HashSet<>();
    Set<String> partitions = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().ignoreResiduals().planFiles()) {
      for (FileScanTask task : tasks) {
        files++;
        bytes += task.file().fileSizeInBytes();
        records += task.file().recordCount();
        if (task.file().fileSizeInBytes() < target * SMALL_FILE_RATIO) {
          small++;
        }
        partitions.add(
            task.spec().isUnpartitioned()
                ? String.valueOf(task.file().specId())
                : task.file().specId() + "/" + task.spec().partitionToPath(task.file().partition()));
        for (DeleteFile delete : task.deletes()) {
          (delete.content() == FileContent.EQUALITY_DELETES ? equalityDeletes : positionDeletes)
              .add(delete.location());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot scan table " + table.name(), e);
    }
    return new TableHealth(
        files, bytes, small, target, positionDeletes.size(), equalityDeletes.size(),
        partitions.size(), snapshots, records);
  }

  private static long sizeOf(Iterable<?> items) {
    long count = 0;
    for (Object ignored : items) {
      count++;
    }
    return count;
  }
}
