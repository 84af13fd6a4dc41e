package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.commit.RewriteCommitter;
import dev.lakeops.health.SmallFileRule;
import dev.lakeops.unit.ByteSize;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * Reads {@link WriteSignals} from snapshot metadata: walks back from the current snapshot and
 * digests each writer commit not yet covered by a compaction (its own new manifests only, never the
 * whole table). Digests are cached by snapshot id, so a check after a checkpoint reads only the
 * commits that checkpoint added.
 *
 * <p>A compaction covers the writer commits it could see: those up to the snapshot it was planned
 * from. A LakeOps compaction, whichever host ran it, records that snapshot in its {@code replace}
 * snapshot's summary ({@value RewriteCommitter#STARTING_SNAPSHOT_PROPERTY}), so commits that landed
 * while it ran (between its planning snapshot and its commit) still count toward the next one:
 * every writer commit counts exactly once, whatever order it lands in. A compaction by another
 * engine records nothing and is taken to cover every commit before it. A {@code replace} snapshot
 * that rewrote no data files (a manifest or delete-file rewrite) is not a compaction of data.
 */
final class WriteHistory {
  /** How far back a check walks when the table has never been compacted. */
  static final int MAX_SNAPSHOTS_WALKED = 1000;

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
    OptionalLong coveredThrough = OptionalLong.empty();
    for (Snapshot snapshot : (Iterable<Snapshot>) recentSnapshots(table)::iterator) {
      if (coveredThrough.isPresent() && snapshot.snapshotId() == coveredThrough.getAsLong()) {
        break;
      }
      if (isDataCompaction(snapshot)) {
        if (coveredThrough.isPresent()) {
          continue; // an older compaction that committed while the newest one ran
        }
        coveredThrough = startingSnapshot(snapshot);
        if (coveredThrough.isEmpty()) {
          break; // another engine's compaction: it covered every commit before it
        }
      } else if (!isReplace(snapshot)) {
        commits.add(digest(table, snapshot, threshold));
      }
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
    return recentSnapshots(table)
        .takeWhile(
            snapshot ->
                snapshot.timestampMillis() >= sinceMillis
                    && !alreadySeen.contains(snapshot.snapshotId()))
        .filter(snapshot -> !isReplace(snapshot))
        .map(snapshot -> digest(table, snapshot, threshold))
        .toList();
  }

  /**
   * The current snapshot and its ancestors, newest first, at most {@link #MAX_SNAPSHOTS_WALKED}.
   */
  private static Stream<Snapshot> recentSnapshots(Table table) {
    Snapshot current = table.currentSnapshot();
    Iterable<Snapshot> ancestors =
        current == null
            ? List.of()
            : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot);
    return StreamSupport.stream(ancestors.spliterator(), false).limit(MAX_SNAPSHOTS_WALKED);
  }

  private static boolean isReplace(Snapshot snapshot) {
    return DataOperations.REPLACE.equals(snapshot.operation());
  }

  /** A {@code replace} snapshot that rewrote data files: a compaction, by any engine. */
  private static boolean isDataCompaction(Snapshot snapshot) {
    return isReplace(snapshot)
        && PropertyUtil.propertyAsLong(snapshot.summary(), SnapshotSummary.DELETED_FILES_PROP, 0)
            > 0;
  }

  /** The snapshot a LakeOps compaction was planned from; empty for other engines' compactions. */
  private static OptionalLong startingSnapshot(Snapshot compaction) {
    String value = compaction.summary().get(RewriteCommitter.STARTING_SNAPSHOT_PROPERTY);
    if (value == null) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(value));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * The commit's digest, cached by snapshot id: a check reads only the commits added since the
   * last.
   */
  private SnapshotWrites digest(Table table, Snapshot snapshot, long threshold) {
    return digests.computeIfAbsent(
        snapshot.snapshotId(), id -> digestOf(table, snapshot, threshold));
  }

  private static long targetFileSize(Table table) {
    return PropertyUtil.propertyAsLong(
        table.properties(),
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
        TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT);
  }

  private long smallFileThreshold(long targetFileSize) {
    return smallFileThreshold
        .map(ByteSize::bytes)
        .orElse(SmallFileRule.defaults().thresholdBytes(targetFileSize));
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
        snapshot.snapshotId(),
        snapshot.timestampMillis(),
        files,
        bytes,
        records,
        small,
        smallBytes,
        deletes,
        partitions);
  }
}
