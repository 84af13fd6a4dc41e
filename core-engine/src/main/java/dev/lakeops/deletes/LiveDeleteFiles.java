package dev.lakeops.deletes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Delete files of one snapshot: all of them, and those that apply to at least one live data file.
 */
final class LiveDeleteFiles {
  private LiveDeleteFiles() {}

  /** Every delete file in {@code snapshot}'s delete manifests, by location. */
  static Map<String, DeleteFile> all(Table table, Snapshot snapshot) {
    Map<String, DeleteFile> files = new LinkedHashMap<>();
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : reader) {
          files.putIfAbsent(file.location(), file.copy());
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read delete manifest " + manifest.path(), e);
      }
    }
    return files;
  }

  /** Locations of the delete files Iceberg's scan planning attaches to some live data file. */
  static java.util.Set<String> applying(Table table, Snapshot snapshot) {
    java.util.Set<String> applying = new java.util.HashSet<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).ignoreResiduals().planFiles()) {
      for (FileScanTask task : tasks) {
        task.deletes().forEach(delete -> applying.add(delete.location()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    return applying;
  }
}
