package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.TableOperationsAccess;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Checks the options against the table and asks Iceberg's {@link ExpireSnapshots} which snapshots
 * would go, without committing. Iceberg owns the retention rules (refs, ages, minimum counts).
 */
final class ExpiryPlanner {
  private final Table table;
  private final SnapshotExpiryOptions options;

  ExpiryPlanner(Table table, SnapshotExpiryOptions options) {
    this.table = requireNonNull(table, "table is null");
    this.options = requireNonNull(options, "options is null");
  }

  ExpiryPlan plan() {
    TableOperationsAccess.requireGarbageCollection(table, "expire snapshots");
    TableMetadata base = TableOperationsAccess.refresh(table);
    validateSnapshotIds(base);
    List<Snapshot> expired = configure(table.expireSnapshots(), options).apply();
    Set<Long> expiredIds = new HashSet<>();
    expired.forEach(snapshot -> expiredIds.add(snapshot.snapshotId()));
    List<Snapshot> retained = new ArrayList<>();
    for (Snapshot snapshot : base.snapshots()) {
      if (!expiredIds.contains(snapshot.snapshotId())) {
        retained.add(snapshot);
      }
    }
    return new ExpiryPlan(base, expired, retained, refsPastMaxAge(base));
  }

  /** Applies the options to an Iceberg update; file cleanup stays ours. */
  static ExpireSnapshots configure(ExpireSnapshots update, SnapshotExpiryOptions options) {
    update.cleanExpiredFiles(false);
    options.olderThan().ifPresent(instant -> update.expireOlderThan(instant.toEpochMilli()));
    options.retainLast().ifPresent(update::retainLast);
    options.snapshotIds().forEach(update::expireSnapshotId);
    if (options.cleanExpiredMetadata()) {
      update.cleanExpiredMetadata(true);
    }
    return update;
  }

  private void validateSnapshotIds(TableMetadata base) {
    for (long id : options.snapshotIds()) {
      if (base.snapshot(id) == null) {
        throw new IllegalArgumentException(
            "Snapshot "
                + id
                + " does not exist in table "
                + table.name()
                + ": pass an id from the table's snapshots (current: "
                + currentId(base)
                + ")");
      }
      for (Map.Entry<String, SnapshotRef> ref : base.refs().entrySet()) {
        if (ref.getValue().snapshotId() == id) {
          throw new IllegalArgumentException(
              "Snapshot "
                  + id
                  + " is the head of "
                  + (ref.getValue().isBranch() ? "branch" : "tag")
                  + " '"
                  + ref.getKey()
                  + "' of table "
                  + table.name()
                  + ": remove or move that ref before expiring the snapshot");
        }
      }
    }
  }

  private static String currentId(TableMetadata base) {
    return base.currentSnapshot() == null
        ? "none"
        : String.valueOf(base.currentSnapshot().snapshotId());
  }

  /** The refs Iceberg will drop for age, for the report (Iceberg does not return them). */
  private List<String> refsPastMaxAge(TableMetadata base) {
    long now = System.currentTimeMillis();
    long defaultMaxRefAge =
        PropertyUtil.propertyAsLong(
            base.properties(),
            TableProperties.MAX_REF_AGE_MS,
            TableProperties.MAX_REF_AGE_MS_DEFAULT);
    List<String> removed = new ArrayList<>();
    for (Map.Entry<String, SnapshotRef> entry : base.refs().entrySet()) {
      if (entry.getKey().equals(SnapshotRef.MAIN_BRANCH)) {
        continue;
      }
      Snapshot head = base.snapshot(entry.getValue().snapshotId());
      Long maxAge = entry.getValue().maxRefAgeMs();
      long limit = maxAge != null ? maxAge : defaultMaxRefAge;
      if (head == null || now - head.timestampMillis() > limit) {
        removed.add(entry.getKey());
      }
    }
    removed.sort(null);
    return removed;
  }
}
