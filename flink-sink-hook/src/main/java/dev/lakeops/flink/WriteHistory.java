package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;

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
    List<SnapshotWrites> commits =
        recentSnapshots(table)
            .takeWhile(snapshot -> !isCompaction(snapshot))
            .map(snapshot -> digest(table, snapshot, threshold))
            .toList();
    return new WriteSignals(commits, target, threshold);
  }

  /**
   * Writer commits newer than {@code sinceMillis} that {@code alreadySeen} does not hold, newest
   * first. Unlike {@link #read}, the walk passes compactions, so a commit that landed while a
   * compaction ran is still found once that compaction has committed.
   */
  List<SnapshotWrites> unseenWriterCommits(Table table, long sinceMillis, Set<Long> alreadySeen) {
    long threshold = smallFileThreshold(targetFileSize(table));
    return recentSnapshots(table)
        .takeWhile(snapshot -> snapshot.timestampMillis() >= sinceMillis && !alreadySeen.contains(snapshot.snapshotId()))
        .filter(snapshot -> !isCompaction(snapshot))
        .map(snapshot -> digest(table, snapshot, threshold))
        .toList();
  }

  /** The current snapshot and its ancestors, newest first, at most {@link #MAX_SNAPSHOTS_WALKED}. */
  private static Stream<Snapshot> recentSnapshots(Table table) {
    Snapshot current = table.currentSnapshot();
    Iterable<Snapshot> ancestors =
        current == null ? List.of() : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot);
    return StreamSupport.stream(ancestors.spliterator(), false).limit(MAX_SNAPSHOTS_WALKED);
  }

  private static boolean isCompaction(Snapshot snapshot) {
    return DataOperations.REPLACE.equals(snapshot.operation());
  }

  /** The commit's digest, cached by snapshot id: a check reads only the commits added since the last. */
  private SnapshotWrites digest(Table table, Snapshot snapshot, long threshold) {
    return digests.computeIfAbsent(snapshot.snapshotId(), id -> digestOf(table, snapshot, threshold));
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

  private static SnapshotWrites digestOf(Table table, Snapshot snapshot, long threshold) {
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
