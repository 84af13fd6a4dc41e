package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Evaluates one table's health again and again, reading as little metadata as it can: one per
 * table, reused across polls.
 *
 * <ul>
 *   <li>Current snapshot unchanged since the last call: no manifest is read (the table refresh is
 *       the only metadata read) and the partition totals are re-used.
 *   <li>New snapshots on top of the last one seen: only the manifests those snapshots wrote are
 *       read (their added and removed data and delete files).
 *   <li>Otherwise (first call, history expired past the last snapshot seen, rollback, new schema or
 *       partition spec, another small-file threshold): every manifest of the current snapshot is
 *       read.
 * </ul>
 *
 * <p>Not thread-safe: one caller at a time per tracker.
 */
public final class TableHealthTracker {
  private final Clock clock;
  private final ManifestReads reads;
  private final ConvergenceMeter convergenceMeter;
  private PartitionTotals totals;
  private Long seenSnapshotId;
  private int seenSchemaId = -1;
  private int seenSpecId = -1;
  private Manifests manifests = new Manifests(-1, 0, 0);

  /** Manifest count and bytes of one snapshot. */
  private record Manifests(long snapshotId, long count, long bytes) {}

  public TableHealthTracker() {
    this(Clock.systemUTC());
  }

  public TableHealthTracker(Clock clock) {
    this(clock, new ManifestReads());
  }

  /** A tracker that counts the manifests it opens in {@code reads} (which others may share). */
  public TableHealthTracker(Clock clock, ManifestReads reads) {
    this.clock = requireNonNull(clock, "clock is null");
    this.reads = requireNonNull(reads, "reads is null");
    this.convergenceMeter = new ConvergenceMeter(reads);
  }

  /** The counter of the manifests this tracker opened (shared when given to the constructor). */
  public ManifestReads manifestReads() {
    return reads;
  }

  /** Refreshes {@code table} and evaluates it with the built-in criteria. */
  public TableHealthReport evaluate(Table table) {
    return evaluate(table, HealthCriteria.defaults());
  }

  /** Refreshes {@code table} and evaluates it against {@code criteria}. */
  public TableHealthReport evaluate(Table table, HealthCriteria criteria) {
    requireNonNull(table, "table is null");
    requireNonNull(criteria, "criteria is null");
    table.refresh();
    return evaluateCurrent(table, criteria);
  }

  /** Evaluates the state {@code table} holds now, without refreshing it. */
  public TableHealthReport evaluateCurrent(Table table, HealthCriteria criteria) {
    requireNonNull(table, "table is null");
    requireNonNull(criteria, "criteria is null");
    Instant now = clock.instant();
    long target = targetFileSize(table, criteria);
    long threshold = criteria.smallFileRule().thresholdBytes(target);
    Snapshot current = table.currentSnapshot();
    EvaluationKind kind = update(table, current, threshold);
    if (current != null && manifests.snapshotId() != current.snapshotId()) {
      long count = 0;
      long bytes = 0;
      for (ManifestFile manifest : current.allManifests(table.io())) {
        count++;
        bytes += manifest.length();
      }
      manifests = new Manifests(current.snapshotId(), count, bytes);
    }
    List<Snapshot> ancestry = SnapshotHistory.ancestry(table);
    List<PartitionHealth> partitions = totals.partitions();
    TableHealth health = tableHealth(table, target, partitions, ancestry, current != null);
    long expirable =
        SnapshotHistory.expirable(table, criteria.retainLast(), criteria.expireOlderThan(), now);
    HealthScore score = HealthScore.compute(health, partitions, expirable, criteria);
    return new TableHealthReport(
        health,
        partitions,
        score,
        Optional.ofNullable(current).map(Snapshot::snapshotId),
        expirable,
        SnapshotHistory.largestSmallFileBatch(ancestry, threshold),
        current == null
            ? CompactionConvergence.NONE
            : convergenceMeter.measure(table, ancestry, target / 2),
        kind,
        table.specs(),
        Optional.ofNullable(current)
            .map(snapshot -> Instant.ofEpochMilli(snapshot.timestampMillis())));
  }

  /** Brings {@link #totals} to {@code current}, reading as little as possible. */
  private EvaluationKind update(Table table, Snapshot current, long threshold) {
    int schemaId = table.schema().schemaId();
    int specId = table.spec().specId();
    boolean reusable =
        totals != null
            && totals.smallThresholdBytes() == threshold
            && schemaId == seenSchemaId
            && specId == seenSpecId;
    seenSchemaId = schemaId;
    seenSpecId = specId;
    if (current == null) {
      totals = new PartitionTotals(threshold);
      seenSnapshotId = null;
      return EvaluationKind.FULL;
    }
    if (reusable && Long.valueOf(current.snapshotId()).equals(seenSnapshotId)) {
      return EvaluationKind.UNCHANGED;
    }
    List<Snapshot> newSnapshots = reusable ? snapshotsSinceSeen(table, current) : null;
    seenSnapshotId = current.snapshotId();
    if (newSnapshots == null) {
      totals = PartitionTotals.scan(table, current, threshold, reads);
      return EvaluationKind.FULL;
    }
    for (Snapshot snapshot : newSnapshots) {
      totals.apply(table, snapshot, reads);
    }
    return EvaluationKind.INCREMENTAL;
  }

  /**
   * The snapshots from the one seen last (exclusive) to {@code current}, oldest first; null when
   * the one seen last is not an ancestor still in the metadata. When the tracker last saw the table
   * without snapshots, the whole history counts as new.
   */
  private List<Snapshot> snapshotsSinceSeen(Table table, Snapshot current) {
    List<Snapshot> chain = new ArrayList<>();
    Snapshot snapshot = current;
    while (snapshot != null && !Long.valueOf(snapshot.snapshotId()).equals(seenSnapshotId)) {
      chain.add(snapshot);
      if (snapshot.parentId() == null) {
        // the root: complete only if the tracker last saw the table without snapshots
        return seenSnapshotId == null ? reversed(chain) : null;
      }
      snapshot = table.snapshot(snapshot.parentId());
    }
    return snapshot == null ? null : reversed(chain);
  }

  private static List<Snapshot> reversed(List<Snapshot> chain) {
    Collections.reverse(chain);
    return chain;
  }

  private TableHealth tableHealth(
      Table table,
      long target,
      List<PartitionHealth> partitions,
      List<Snapshot> ancestry,
      boolean hasSnapshot) {
    long dataFiles = 0;
    long dataBytes = 0;
    long smallFiles = 0;
    long smallBytes = 0;
    long positionDeletes = 0;
    long equalityDeletes = 0;
    long deleteBytes = 0;
    long records = 0;
    long partitionsWithData = 0;
    for (PartitionHealth partition : partitions) {
      dataFiles += partition.dataFiles();
      dataBytes += partition.dataBytes();
      smallFiles += partition.smallDataFiles();
      smallBytes += partition.smallDataBytes();
      positionDeletes += partition.positionDeleteFiles();
      equalityDeletes += partition.equalityDeleteFiles();
      deleteBytes += partition.deleteFileBytes();
      records += partition.records();
      partitionsWithData += partition.dataFiles() > 0 ? 1 : 0;
    }
    return new TableHealth(
        dataFiles,
        dataBytes,
        smallFiles,
        target,
        positionDeletes,
        equalityDeletes,
        partitionsWithData,
        SnapshotHistory.count(table),
        records,
        smallBytes,
        deleteBytes,
        hasSnapshot ? manifests.count() : 0,
        hasSnapshot ? manifests.bytes() : 0,
        SnapshotHistory.oldest(table),
        SnapshotHistory.lastRewrite(ancestry),
        SnapshotHistory.lastDataRewrite(ancestry));
  }

  private static long targetFileSize(Table table, HealthCriteria criteria) {
    return criteria
        .targetFileSize()
        .map(size -> size.bytes())
        .orElseGet(
            () ->
                PropertyUtil.propertyAsLong(
                    table.properties(),
                    TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                    TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT));
  }
}
