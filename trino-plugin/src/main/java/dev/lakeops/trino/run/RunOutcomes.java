package dev.lakeops.trino.run;

import static dev.lakeops.trino.run.RunMetric.ADDED_MANIFESTS;
import static dev.lakeops.trino.run.RunMetric.DATA_FILES;
import static dev.lakeops.trino.run.RunMetric.DELETED_FILES;
import static dev.lakeops.trino.run.RunMetric.DROPPED_GROUPS;
import static dev.lakeops.trino.run.RunMetric.EXPIRED_SNAPSHOTS;
import static dev.lakeops.trino.run.RunMetric.INPUT_BYTES;
import static dev.lakeops.trino.run.RunMetric.INPUT_FILES;
import static dev.lakeops.trino.run.RunMetric.ORPHAN_FILES;
import static dev.lakeops.trino.run.RunMetric.OUTPUT_BYTES;
import static dev.lakeops.trino.run.RunMetric.OUTPUT_FILES;
import static dev.lakeops.trino.run.RunMetric.REMOVED_DELETE_FILES;
import static dev.lakeops.trino.run.RunMetric.REWRITTEN_MANIFESTS;
import static dev.lakeops.trino.run.RunMetric.SMALL_DATA_FILES;
import static dev.lakeops.trino.run.RunMetric.SNAPSHOT_ID;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.health.TableHealth;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.runs.RunFields;
import dev.lakeops.unit.ByteSize;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Turns the results of the LakeOps core into {@link RunOutcome}s, one method per result type. */
public final class RunOutcomes {
  private static final List<RunMetric> COMPACTION_METRICS =
      List.of(
          INPUT_FILES,
          OUTPUT_FILES,
          INPUT_BYTES,
          OUTPUT_BYTES,
          REMOVED_DELETE_FILES,
          RunMetric.PEAK_MEMORY_BYTES,
          DROPPED_GROUPS,
          RunMetric.FAILED_DATA_FILES,
          SNAPSHOT_ID);

  private RunOutcomes() {}

  public static RunOutcome compaction(CompactionResult result) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    putCompaction(metrics, result);
    return new RunOutcome(
        result.dryRun(), Optional.of(result.strategy()), metrics, compactionSummary(result));
  }

  public static RunOutcome expiry(SnapshotExpiryResult result) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    putExpiry(metrics, result);
    return new RunOutcome(result.dryRun(), Optional.empty(), metrics, expirySummary(result));
  }

  public static RunOutcome orphans(OrphanRemovalResult result) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    putOrphans(metrics, result);
    return new RunOutcome(result.dryRun(), Optional.empty(), metrics, orphanSummary(result));
  }

  public static RunOutcome manifests(ManifestRewriteResult result) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    putManifests(metrics, result);
    return new RunOutcome(result.dryRun(), Optional.empty(), metrics, manifestSummary(result));
  }

  /** One row for the whole run: each step fills its own columns; deleted files add up. */
  public static RunOutcome maintenance(MaintenanceResult result, boolean dryRun) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    List<String> steps = new ArrayList<>();
    result
        .expiry()
        .ifPresent(
            expiry -> {
              putExpiry(metrics, expiry);
              steps.add("expire: " + expirySummary(expiry));
            });
    result
        .orphans()
        .ifPresent(
            orphans -> {
              long expiredFiles = metrics.getOrDefault(DELETED_FILES, 0L);
              putOrphans(metrics, orphans);
              metrics.merge(DELETED_FILES, expiredFiles, Long::sum);
              steps.add("orphans: " + orphanSummary(orphans));
            });
    result
        .compaction()
        .ifPresent(
            compaction -> {
              putCompaction(metrics, compaction);
              steps.add("compact: " + compactionSummary(compaction));
            });
    result
        .manifests()
        .ifPresent(
            manifests -> {
              putManifests(metrics, manifests);
              steps.add("manifests: " + manifestSummary(manifests));
            });
    return new RunOutcome(
        dryRun,
        result.compaction().map(CompactionResult::strategy),
        metrics,
        steps.isEmpty() ? "no step ran" : String.join("; ", steps));
  }

  public static RunOutcome health(TableHealth health) {
    Map<RunMetric, Long> metrics = new EnumMap<>(RunMetric.class);
    metrics.put(DATA_FILES, health.dataFiles());
    metrics.put(SMALL_DATA_FILES, health.smallDataFiles());
    String summary =
        String.format(
            Locale.ROOT,
            "%d data files (%s, average %s), %d small (%.0f%% under 75%% of the %s target), %d position and %d equality delete files, %d partitions, %d snapshots, %d records",
            health.dataFiles(),
            ByteSize.ofBytes(health.dataBytes()),
            ByteSize.ofBytes(health.averageFileBytes()),
            health.smallDataFiles(),
            health.smallFileRatio() * 100,
            ByteSize.ofBytes(health.targetFileSizeBytes()),
            health.positionDeleteFiles(),
            health.equalityDeleteFiles(),
            health.partitions(),
            health.snapshots(),
            health.records());
    return new RunOutcome(false, Optional.empty(), metrics, summary);
  }

  /** The compaction's figures from the shared result fields ({@link RunFields#compaction}). */
  private static void putCompaction(Map<RunMetric, Long> metrics, CompactionResult result) {
    Map<String, Object> fields = RunFields.compaction(result);
    for (RunMetric metric : COMPACTION_METRICS) {
      if (fields.get(metric.columnName()) instanceof Number value) {
        metrics.put(metric, value.longValue());
      }
    }
  }

  private static void putExpiry(Map<RunMetric, Long> metrics, SnapshotExpiryResult result) {
    metrics.put(EXPIRED_SNAPSHOTS, (long) result.expiredSnapshotIds().size());
    metrics.put(DELETED_FILES, result.deletedFiles());
  }

  private static void putOrphans(Map<RunMetric, Long> metrics, OrphanRemovalResult result) {
    metrics.put(ORPHAN_FILES, (long) result.orphanFiles().size());
    metrics.put(DELETED_FILES, result.deletedFiles());
  }

  private static void putManifests(Map<RunMetric, Long> metrics, ManifestRewriteResult result) {
    metrics.put(REWRITTEN_MANIFESTS, (long) result.rewrittenManifests());
    metrics.put(ADDED_MANIFESTS, (long) result.addedManifests());
    putSnapshot(metrics, result.snapshotId());
  }

  private static void putSnapshot(Map<RunMetric, Long> metrics, OptionalLong snapshotId) {
    snapshotId.ifPresent(id -> metrics.put(SNAPSHOT_ID, id));
  }

  private static String compactionSummary(CompactionResult result) {
    String summary =
        "%s: %s %d data files (%s) into %d (%s), %d file group%s"
            .formatted(
                result.strategy(),
                result.dryRun() ? "would rewrite" : "rewrote",
                result.inputFiles(),
                ByteSize.ofBytes(result.inputBytes()),
                result.outputFiles(),
                ByteSize.ofBytes(result.outputBytes()),
                result.fileGroups(),
                result.fileGroups() == 1 ? "" : "s");
    if (result.removedDeleteFiles() > 0) {
      summary += ", removed " + result.removedDeleteFiles() + " delete files";
    }
    if (result.spillFiles() > 0) {
      summary +=
          ", spilled "
              + ByteSize.ofBytes(result.spilledBytes())
              + " in "
              + result.spillFiles()
              + " files";
    }
    if (result.droppedGroups() > 0) {
      summary +=
          ", dropped "
              + result.droppedGroups()
              + " groups ("
              + String.join("; ", result.dropReasons())
              + ")";
    }
    return summary;
  }

  private static String expirySummary(SnapshotExpiryResult result) {
    return "%s %d snapshots, %d retained, %d files deleted%s"
        .formatted(
            result.dryRun() ? "would expire" : "expired",
            result.expiredSnapshotIds().size(),
            result.retainedSnapshots(),
            result.deletedFiles(),
            result.failedDeletes() > 0 ? ", " + result.failedDeletes() + " deletes failed" : "");
  }

  private static String orphanSummary(OrphanRemovalResult result) {
    return "%d orphan files of %d listed under %s (cutoff %s), %d deleted%s"
        .formatted(
            result.orphanFiles().size(),
            result.listedFiles(),
            result.location(),
            result.cutoff(),
            result.deletedFiles(),
            result.failedDeletes() > 0 ? ", " + result.failedDeletes() + " deletes failed" : "");
  }

  private static String manifestSummary(ManifestRewriteResult result) {
    String summary =
        "%d manifests before, %d after (%d rewritten, %d added)"
            .formatted(
                result.manifestsBefore(),
                result.manifestsAfter(),
                result.rewrittenManifests(),
                result.addedManifests());
    return result.unchangedReason().map(reason -> summary + ": " + reason).orElse(summary);
  }
}
