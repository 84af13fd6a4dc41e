package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Running totals of the live data and delete files of one snapshot, per partition, under one
 * small-file threshold: what a health evaluation keeps between polls so the next one reads only the
 * files committed since. Memory is per partition, not per file: a removed file carries its own size
 * and partition, so it is subtracted without remembering it. The one exception is the locations of
 * position delete files that may name several data files (a removed entry carries no bounds to tell
 * them by), of which a partition holds few.
 */
final class PartitionTotals {
  private record PartitionId(int specId, String path) {}

  private static final class Sums {
    private final List<Object> values;
    long dataFiles;
    long dataBytes;
    long smallFiles;
    long smallBytes;
    long positionDeletes;
    long equalityDeletes;
    long deleteBytes;
    long records;
    long compactedSmallFiles;
    long compactedSmallBytes;
    long positionDeleteBytes;

    /**
     * Locations of the position delete files that may name several data files (few: what a
     * delete-file rewrite wrote); kept by location because a removed file's entry carries no
     * bounds.
     */
    final java.util.Set<String> sharedPositionDeletes = new java.util.HashSet<>();

    long deletionVectors;

    Sums(List<Object> values) {
      this.values = values;
    }

    boolean empty() {
      return dataFiles == 0 && positionDeletes == 0 && equalityDeletes == 0;
    }
  }

  private final Map<PartitionId, Sums> sums =
      new TreeMap<>(Comparator.comparingInt(PartitionId::specId).thenComparing(PartitionId::path));
  private final long smallThresholdBytes;

  /** Totals of a table without snapshots. */
  PartitionTotals(long smallThresholdBytes) {
    this.smallThresholdBytes = smallThresholdBytes;
  }

  long smallThresholdBytes() {
    return smallThresholdBytes;
  }

  /** Reads every live file of {@code snapshot} from its manifests. */
  static PartitionTotals scan(
      Table table, Snapshot snapshot, long smallThresholdBytes, ManifestReads reads) {
    requireNonNull(table, "table is null");
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(reads, "reads is null");
    PartitionTotals totals = new PartitionTotals(smallThresholdBytes);
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      reads.add(1);
      try (ManifestReader<DataFile> reader =
          ManifestFiles.read(manifest, table.io(), table.specs())) {
        for (DataFile file : reader) {
          totals.addData(file, table.specs().get(file.specId()), 1);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot read manifest " + manifest.path() + " of " + table.name(), e);
      }
    }
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      reads.add(1);
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : reader) {
          totals.addDelete(file, table.specs().get(file.specId()), 1);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot read manifest " + manifest.path() + " of " + table.name(), e);
      }
    }
    return totals;
  }

  /** Applies the files {@code snapshot} added and removed (reads only the manifests it wrote). */
  void apply(Table table, Snapshot snapshot, ManifestReads reads) {
    Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
    if (counted(summary, SnapshotSummary.ADDED_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.DELETED_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.ADDED_DELETE_FILES_PROP) == 0
        && counted(summary, SnapshotSummary.REMOVED_DELETE_FILES_PROP) == 0) {
      return; // e.g. a manifest rewrite: its manifests hold only existing entries
    }
    reads.add(writtenManifests(table, snapshot));
    SnapshotChanges changes = SnapshotChanges.builderFor(table).snapshot(snapshot).build();
    for (DataFile file : changes.removedDataFiles()) {
      addData(file, table.specs().get(file.specId()), -1);
    }
    for (DataFile file : changes.addedDataFiles()) {
      addData(file, table.specs().get(file.specId()), 1);
    }
    for (DeleteFile file : changes.removedDeleteFiles()) {
      addDelete(file, table.specs().get(file.specId()), -1);
    }
    for (DeleteFile file : changes.addedDeleteFiles()) {
      addDelete(file, table.specs().get(file.specId()), 1);
    }
  }

  /** The manifests {@code snapshot} wrote: those its changes are read from. */
  static long writtenManifests(Table table, Snapshot snapshot) {
    return snapshot.allManifests(table.io()).stream()
        .filter(manifest -> Long.valueOf(snapshot.snapshotId()).equals(manifest.snapshotId()))
        .count();
  }

  /** Every partition holding data or delete files, by spec id and path. */
  List<PartitionHealth> partitions() {
    List<PartitionHealth> partitions = new ArrayList<>(sums.size());
    sums.forEach(
        (id, sum) ->
            partitions.add(
                new PartitionHealth(
                    id.specId(),
                    id.path(),
                    sum.values,
                    sum.dataFiles,
                    sum.dataBytes,
                    sum.smallFiles,
                    sum.smallBytes,
                    sum.positionDeletes,
                    sum.equalityDeletes,
                    sum.deleteBytes,
                    sum.records,
                    sum.compactedSmallFiles,
                    sum.compactedSmallBytes,
                    sum.positionDeleteBytes,
                    sum.sharedPositionDeletes.size(),
                    sum.deletionVectors)));
    return partitions;
  }

  private void addData(DataFile file, PartitionSpec spec, int sign) {
    PartitionId id = idOf(file, spec);
    Sums sum = sums.computeIfAbsent(id, ignored -> new Sums(valuesOf(file.partition(), spec)));
    sum.dataFiles += sign;
    sum.dataBytes += sign * file.fileSizeInBytes();
    sum.records += sign * file.recordCount();
    if (file.fileSizeInBytes() < smallThresholdBytes) {
      sum.smallFiles += sign;
      sum.smallBytes += sign * file.fileSizeInBytes();
      if (CompactionOutputs.isCompactionOutput(file)) {
        sum.compactedSmallFiles += sign;
        sum.compactedSmallBytes += sign * file.fileSizeInBytes();
      }
    }
    removeIfEmpty(id, sum);
  }

  private void addDelete(DeleteFile file, PartitionSpec spec, int sign) {
    PartitionId id = idOf(file, spec);
    Sums sum = sums.computeIfAbsent(id, ignored -> new Sums(valuesOf(file.partition(), spec)));
    if (file.content() == FileContent.EQUALITY_DELETES) {
      sum.equalityDeletes += sign;
    } else {
      sum.positionDeletes += sign;
      sum.positionDeleteBytes += sign * file.fileSizeInBytes();
      if (ContentFileUtil.isDV(file)) {
        sum.deletionVectors += sign;
      } else if (sign < 0) {
        sum.sharedPositionDeletes.remove(file.location());
      } else if (ContentFileUtil.referencedDataFile(file) == null) {
        sum.sharedPositionDeletes.add(file.location());
      }
    }
    sum.deleteBytes += sign * file.fileSizeInBytes();
    removeIfEmpty(id, sum);
  }

  private void removeIfEmpty(PartitionId id, Sums sum) {
    if (sum.empty()) {
      sums.remove(id);
    }
  }

  private static long counted(Map<String, String> summary, String property) {
    return PropertyUtil.propertyAsLong(summary, property, -1);
  }

  private static PartitionId idOf(ContentFile<?> file, PartitionSpec spec) {
    return new PartitionId(
        file.specId(), spec.isUnpartitioned() ? "" : spec.partitionToPath(file.partition()));
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
