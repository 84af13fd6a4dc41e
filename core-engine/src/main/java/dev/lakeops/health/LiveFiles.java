package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.PropertyUtil;

/**
 * The live data and delete files of one snapshot, by partition: what a health evaluation keeps
 * between polls so the next one reads only the files committed since.
 */
final class LiveFiles {
  record PartitionId(int specId, String path) {}

  record DataEntry(PartitionId partition, long sizeBytes, long records) {}

  record DeleteEntry(PartitionId partition, FileContent content, long sizeBytes) {}

  private final Map<String, DataEntry> dataFiles = new HashMap<>();
  private final Map<String, DeleteEntry> deleteFiles = new HashMap<>();
  private final Map<PartitionId, List<Object>> partitionValues = new HashMap<>();

  /** Reads every live file of {@code snapshot} from its manifests. */
  static LiveFiles scan(Table table, Snapshot snapshot) {
    requireNonNull(table, "table is null");
    requireNonNull(snapshot, "snapshot is null");
    LiveFiles files = new LiveFiles();
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      try (ManifestReader<DataFile> reader = ManifestFiles.read(manifest, table.io(), table.specs())) {
        for (DataFile file : reader) {
          files.addData(file, table.specs().get(file.specId()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path() + " of " + table.name(), e);
      }
    }
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : reader) {
          files.addDelete(file, table.specs().get(file.specId()));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path() + " of " + table.name(), e);
      }
    }
    return files;
  }

  /** Applies the files {@code snapshot} added and removed (reads only its own manifests). */
  void apply(Table table, Snapshot snapshot) {
    Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
    if (counted(summary, SnapshotSummary.ADDED_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.DELETED_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.ADDED_DELETE_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.REMOVED_DELETE_FILES_PROP) == 0) {
      return; // e.g. a manifest rewrite: its manifests hold only existing entries
    }
    SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(snapshot).build();
    for (DataFile file : changes.removedDataFiles()) {
      dataFiles.remove(file.location());
    }
    for (DataFile file : changes.addedDataFiles()) {
      addData(file, table.specs().get(file.specId()));
    }
    for (DeleteFile file : changes.removedDeleteFiles()) {
      deleteFiles.remove(deleteKey(file));
    }
    for (DeleteFile file : changes.addedDeleteFiles()) {
      addDelete(file, table.specs().get(file.specId()));
    }
  }

  /** A count from a snapshot summary; -1 when the summary does not say. */
  private static long counted(Map<String, String> summary, String property) {
    return PropertyUtil.propertyAsLong(summary, property, -1);
  }

  Map<String, DataEntry> dataFiles() {
    return dataFiles;
  }

  Map<String, DeleteEntry> deleteFiles() {
    return deleteFiles;
  }

  List<Object> values(PartitionId partition) {
    return partitionValues.getOrDefault(partition, List.of());
  }

  private void addData(DataFile file, PartitionSpec spec) {
    dataFiles.put(file.location(), new DataEntry(partitionOf(file, spec), file.fileSizeInBytes(), file.recordCount()));
  }

  private void addDelete(DeleteFile file, PartitionSpec spec) {
    deleteFiles.put(deleteKey(file), new DeleteEntry(partitionOf(file, spec), file.content(), file.fileSizeInBytes()));
  }

  /** Deletion vectors share one Puffin file; each is its own entry. */
  private static String deleteKey(DeleteFile file) {
    return file.contentOffset() == null ? file.location() : file.location() + "#" + file.contentOffset();
  }

  private PartitionId partitionOf(ContentFile<?> file, PartitionSpec spec) {
    PartitionId id =
        new PartitionId(file.specId(), spec.isUnpartitioned() ? "" : spec.partitionToPath(file.partition()));
    partitionValues.computeIfAbsent(id, ignored -> valuesOf(file.partition(), spec));
    return id;
  }

  private static List<Object> valuesOf(StructLike partition, PartitionSpec spec) {
    List<Object> values = new ArrayList<>();
    for (int index = 0; index < spec.fields().size(); index++) {
      Object value = partition.get(index, Object.class);
      if (value instanceof CharSequence text) {
        value = text.toString();
      } else if (value instanceof ByteBuffer buffer) {
        value = buffer.duplicate();
      }
      values.add(value);
    }
    return values;
  }
}
