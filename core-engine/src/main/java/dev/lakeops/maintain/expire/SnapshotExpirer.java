package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.BatchDeleter;
import dev.lakeops.maintain.files.DeletionOutcome;
import dev.lakeops.maintain.files.ParallelTasks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * The entry point to expire snapshots: plan with Iceberg's retention rules, commit the metadata
 * change, then delete only the files no retained snapshot reaches, computed from the metadata read
 * back after the commit (so a writer that committed meanwhile is accounted for).
 */
public final class SnapshotExpirer {
  public SnapshotExpiryResult expire(Table table, SnapshotExpiryOptions options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    long started = System.nanoTime();
    ExpiryPlan plan = new ExpiryPlanner(table, options).plan();
    ExecutorService executor = ParallelTasks.newPool("expire", options.parallelism());
    try {
      ExpiredFileCollector collector =
          new ExpiredFileCollector(table.io(), plan.base().specsById(), executor);
      if (options.dryRun()) {
        ExpiredFiles files =
            collector.collect(
                plan.expired(),
                plan.retained(),
                statisticsOf(plan.base(), null),
                statisticsOf(plan.base(), plan.retained()));
        return result(
            table,
            plan.expired(),
            plan.retained().size(),
            plan.removedRefs(),
            files,
            new DeletionOutcome(0, 0),
            started,
            true);
      }
      if (plan.isEmpty()) {
        return result(
            table,
            List.of(),
            plan.retained().size(),
            List.of(),
            ExpiredFiles.none(),
            DeletionOutcome.NONE,
            started,
            false);
      }
      TableMetadata before = plan.base();
      TableMetadata after = new ExpiryCommitter(table).commit(options);
      List<Snapshot> expired = expiredBetween(before, after);
      ExpiredFiles files =
          collector.collect(
              expired, after.snapshots(), statisticsOf(before, null), statisticsOf(after, null));
      BatchDeleter deleter =
          new BatchDeleter(
              table.io(), executor, options.parallelism(), BatchDeleter.DEFAULT_BATCH_SIZE);
      DeletionOutcome outcome =
          deleter
              .delete(files.contentFiles().stream())
              .plus(deleter.delete(files.manifests().stream()))
              .plus(deleter.delete(files.manifestLists().stream()))
              .plus(deleter.delete(files.statisticsFiles().stream()));
      List<String> removedRefs = new ArrayList<>(before.refs().keySet());
      removedRefs.removeAll(after.refs().keySet());
      removedRefs.sort(null);
      return result(
          table, expired, after.snapshots().size(), removedRefs, files, outcome, started, false);
    } finally {
      executor.shutdownNow();
    }
  }

  private static List<Snapshot> expiredBetween(TableMetadata before, TableMetadata after) {
    Set<Long> kept = new HashSet<>();
    after.snapshots().forEach(snapshot -> kept.add(snapshot.snapshotId()));
    List<Snapshot> expired = new ArrayList<>();
    for (Snapshot snapshot : before.snapshots()) {
      if (!kept.contains(snapshot.snapshotId())) {
        expired.add(snapshot);
      }
    }
    return expired;
  }

  /** Statistics file locations of {@code metadata}, only those of {@code snapshots} when given. */
  private static Set<String> statisticsOf(TableMetadata metadata, List<Snapshot> snapshots) {
    Set<Long> ids = null;
    if (snapshots != null) {
      ids = new HashSet<>();
      for (Snapshot snapshot : snapshots) {
        ids.add(snapshot.snapshotId());
      }
    }
    Set<String> locations = new HashSet<>();
    for (StatisticsFile file : metadata.statisticsFiles()) {
      if (ids == null || ids.contains(file.snapshotId())) {
        locations.add(file.path());
      }
    }
    for (PartitionStatisticsFile file : metadata.partitionStatisticsFiles()) {
      if (ids == null || ids.contains(file.snapshotId())) {
        locations.add(file.path());
      }
    }
    return locations;
  }

  private static SnapshotExpiryResult result(
      Table table,
      List<Snapshot> expired,
      int retained,
      List<String> removedRefs,
      ExpiredFiles files,
      DeletionOutcome outcome,
      long started,
      boolean dryRun) {
    List<Long> ids = new ArrayList<>();
    expired.forEach(snapshot -> ids.add(snapshot.snapshotId()));
    ids.sort(null);
    return new SnapshotExpiryResult(
        table.name(),
        ids,
        retained,
        removedRefs,
        files.dataFiles().size(),
        files.positionDeleteFiles().size(),
        files.equalityDeleteFiles().size(),
        files.manifests().size(),
        files.manifestLists().size(),
        files.statisticsFiles().size(),
        outcome.failed(),
        Duration.ofNanos(System.nanoTime() - started),
        dryRun);
  }
}
