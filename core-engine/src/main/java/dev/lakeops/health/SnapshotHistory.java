package dev.lakeops.health;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.PropertyUtil;

/** What the snapshot list in a table's metadata tells without reading any manifest. */
final class SnapshotHistory {
  private SnapshotHistory() {}

  /** The current snapshot and its ancestors kept in the metadata, newest first. */
  static List<Snapshot> ancestry(Table table) {
    List<Snapshot> ancestry = new ArrayList<>();
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      ancestry.add(snapshot);
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    return ancestry;
  }

  static boolean isRewrite(Snapshot snapshot) {
    return DataOperations.REPLACE.equals(snapshot.operation());
  }

  static Optional<Instant> oldest(Table table) {
    long oldest = Long.MAX_VALUE;
    for (Snapshot snapshot : table.snapshots()) {
      oldest = Math.min(oldest, snapshot.timestampMillis());
    }
    return oldest == Long.MAX_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(oldest));
  }

  static long count(Table table) {
    long count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }

  static Optional<Instant> lastRewrite(List<Snapshot> ancestry) {
    return ancestry.stream()
        .filter(SnapshotHistory::isRewrite)
        .findFirst()
        .map(snapshot -> Instant.ofEpochMilli(snapshot.timestampMillis()));
  }

  /**
   * The newest {@code replace} snapshot that removed data files: a compaction, not a rewrite of
   * manifests or of delete files alone.
   */
  static Optional<Instant> lastDataRewrite(List<Snapshot> ancestry) {
    return ancestry.stream()
        .filter(SnapshotHistory::isRewrite)
        .filter(
            snapshot ->
                snapshot.summary() == null
                    || PropertyUtil.propertyAsLong(
                            snapshot.summary(), SnapshotSummary.DELETED_FILES_PROP, 0)
                        > 0)
        .findFirst()
        .map(snapshot -> Instant.ofEpochMilli(snapshot.timestampMillis()));
  }

  /**
   * Snapshots an expiry with {@code retainLast} and {@code olderThan} would remove: not among the
   * newest {@code retainLast}, not the head of a branch or tag, committed before {@code now -
   * olderThan}.
   */
  static long expirable(Table table, int retainLast, Duration olderThan, Instant now) {
    Set<Long> referenced = new HashSet<>();
    for (Map.Entry<String, SnapshotRef> ref : table.refs().entrySet()) {
      referenced.add(ref.getValue().snapshotId());
    }
    List<Snapshot> newestFirst = new ArrayList<>();
    table.snapshots().forEach(newestFirst::add);
    newestFirst.sort(Comparator.comparingLong(Snapshot::timestampMillis).reversed());
    long cutoff = now.minus(olderThan).toEpochMilli();
    long expirable = 0;
    for (int index = Math.max(0, retainLast); index < newestFirst.size(); index++) {
      Snapshot snapshot = newestFirst.get(index);
      if (!referenced.contains(snapshot.snapshotId()) && snapshot.timestampMillis() < cutoff) {
        expirable++;
      }
    }
    return expirable;
  }

  /**
   * The largest number of data files one commit since the last rewrite added when they were all
   * small (their average size under {@code smallThresholdBytes}), from snapshot summaries.
   */
  static Optional<SmallFileBatch> largestSmallFileBatch(
      List<Snapshot> ancestry, long smallThresholdBytes) {
    SmallFileBatch largest = null;
    for (Snapshot snapshot : ancestry) {
      if (isRewrite(snapshot)) {
        break;
      }
      Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
      long files = PropertyUtil.propertyAsLong(summary, SnapshotSummary.ADDED_FILES_PROP, 0);
      long bytes =
          PropertyUtil.propertyAsLong(
              summary, SnapshotSummary.ADDED_FILE_SIZE_PROP, Long.MAX_VALUE);
      if (files >= 2
          && bytes / files < smallThresholdBytes
          && (largest == null || files > largest.smallFiles())) {
        largest = new SmallFileBatch(snapshot.snapshotId(), files);
      }
    }
    return Optional.ofNullable(largest);
  }
}
