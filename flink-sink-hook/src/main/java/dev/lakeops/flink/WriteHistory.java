package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Reads {@link WriteSignals} from snapshot metadata: walks back from the current snapshot to the
 * last compaction and digests each writer commit once (its own new manifests only, never the whole
 * table). Digests are cached by snapshot id, so a check after a checkpoint reads only the commits
 * that checkpoint added.
 */
final class WriteHistory {
  /** How far back a check walks when the table has never been compacted. */
  static final int MAX_SNAPSHOTS_WALKED = 1000;

  private static final double SMALL_FILE_RATIO = 0.75;
  private static final int CACHE_SIZE = 2 * MAX_SNAPSHOTS_WALKED;

  private final Optional<ByteSize> smallFileThreshold;
  private final Map<Long, SnapshotWrites> digests =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, SnapshotWrites> eldest) {
          return size() > CACHE_SIZE;
        }
      };

  WriteHistory(Optional<ByteSize> smallFileThreshold) {
    this.smallFileThreshold = requireNonNull(smallFileThreshold, "smallFileThreshold is null");
  }

  WriteSignals read(Table table) {
    long target = targetFileSize(table);
    long threshold = smallFileThreshold(target);
    List<SnapshotWrites> commits = new ArrayList<>();
    Snapshot snapshot = table.currentSnapshot();
    int walked = 0;
    while (snapshot != null
        && walked < MAX_SNAPSHOTS_WALKED
        && !DataOperations.REPLACE.equals(snapshot.operation())) {
      Snapshot current = snapshot;
      commits.add(digests.computeIfAbsent(current.snapshotId(), id -> digest(table, current, threshold)));
      snapshot = current.parentId() == null ? null : table.snapshot(current.parentId());
      walked++;
    }
    return new WriteSignals(commits, target, threshold);
  }

  /**
   * Writer commits newer than {@code sinceMillis} that {@code alreadySeen} does not hold, newest
   * first. Unlike {@link #read}, the walk passes compactions, so a commit that landed while a
   * compaction ran is still found once that compaction has committed.
   */
  List<SnapshotWrites> unseenWriterCommits(Table table, long sinceMillis, Set<Long> alreadySeen) {
    long threshold = smallFileThreshold(targetFileSize(table));
    List<SnapshotWrites> commits = new ArrayList<>();
    Snapshot snapshot = table.currentSnapshot();
    int walked = 0;
    while (snapshot != null
        && walked < MAX_SNAPSHOTS_WALKED
        && snapshot.timestampMillis() >= sinceMillis
        && !alreadySeen.contains(snapshot.snapshotId())) {
      Snapshot current = snapshot;
      if (!DataOperations.REPLACE.equals(current.operation())) {
        commits.add(digests.computeIfAbsent(current.snapshotId(), id -> digest(table, current, threshold)));
      }
      snapshot = current.parentId() == null ? null : table.snapshot(current.parentId());
      walked++;
    }
    return commits;
  }

  private static long targetFileSize(Table table) {
    return PropertyUtil.propertyAsLong(
        table.properties(),
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
  }

  private long smallFileThreshold(long targetFileSize) {
    return smallFileThreshold.map(ByteSize::bytes).orElse((long) (targetFileSize * SMALL_FILE_RATIO));
  }

  private static SnapshotWrites digest(Table table, Snapshot snapshot, long threshold) {
    int files = 0;
    long bytes = 0;
    long records = 0;
    int small = 0;
    long smallBytes = 0;
    Set<PartitionValues> partitions = new HashSet<>();
    for (DataFile file : snapshot.addedDataFiles(table.io())) {
      files++;
      bytes += file.fileSizeInBytes();
      records += file.recordCount();
      if (file.fileSizeInBytes() < threshold) {
        small++;
        smallBytes += file.fileSizeInBytes();
      }
      partitions.add(PartitionValues.of(table.specs().get(file.specId()), file.partition()));
    }
    int deletes = 0;
    for (DeleteFile ignored : snapshot.addedDeleteFiles(table.io())) {
      deletes++;
    }
    return new SnapshotWrites(
        snapshot.snapshotId(), snapshot.timestampMillis(), files, bytes, records, small, smallBytes,
        deletes, partitions);
  }
}
