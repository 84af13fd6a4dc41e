package dev.lakeops.advise;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/** Data file bytes per partition of a table's current snapshot, from its manifests. */
final class PartitionBytes {
  private PartitionBytes() {}

  /** The bytes of the largest partition; 1 for a table without data files. */
  static long largest(Table table) {
    if (table.currentSnapshot() == null) {
      return 1;
    }
    Map<String, Long> bytes = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        String partition =
            file.specId()
                + "/"
                + table.specs().get(file.specId()).partitionToPath(file.partition());
        bytes.merge(partition, file.fileSizeInBytes(), Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan a scan of " + table.name(), e);
    }
    return bytes.values().stream().mapToLong(Long::longValue).max().orElse(1);
  }
}
