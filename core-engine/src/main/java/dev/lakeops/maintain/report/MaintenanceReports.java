package dev.lakeops.maintain.report;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders maintenance results as the CLI's JSON contract (snake_case keys) or as short human
 * summaries. Hosts that print results reuse these maps.
 */
public final class MaintenanceReports {
  /** Orphan locations printed by the human summary; the JSON carries them all. */
  private static final int LISTED_ORPHANS = 20;

  private MaintenanceReports() {}

  public static Map<String, Object> json(SnapshotExpiryResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    json.put("expired_snapshot_ids", result.expiredSnapshotIds());
    json.put("retained_snapshots", result.retainedSnapshots());
    json.put("removed_refs", result.removedRefs());
    json.put("deleted_data_files", result.deletedDataFiles());
    json.put("deleted_position_delete_files", result.deletedPositionDeleteFiles());
    json.put("deleted_equality_delete_files", result.deletedEqualityDeleteFiles());
    json.put("deleted_manifests", result.deletedManifests());
    json.put("deleted_manifest_lists", result.deletedManifestLists());
    json.put("deleted_statistics_files", result.deletedStatisticsFiles());
    json.put("failed_deletes", result.failedDeletes());
    json.put("seconds", seconds(result.elapsed()));
    return json;
  }

  public static Map<String, Object> json(OrphanRemovalResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    json.put("location", result.location());
    json.put("cutoff", result.cutoff().toString());
    json.put("listed_files", result.listedFiles());
    json.put("referenced_files", result.referencedFiles());
    json.put("too_new_files", result.tooNewFiles());
    json.put("prefix_mismatches", result.prefixMismatches());
    json.put("orphan_files", result.orphanFiles());
    json.put("deleted_files", result.deletedFiles());
    json.put("failed_deletes", result.failedDeletes());
    json.put("seconds", seconds(result.elapsed()));
    return json;
  }

  public static Map<String, Object> json(ManifestRewriteResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    json.put("manifests_before", result.manifestsBefore());
    json.put("manifests_after", result.manifestsAfter());
    json.put("rewritten_manifests", result.rewrittenManifests());
    json.put("added_manifests", result.addedManifests());
    json.put(
        "snapshot_id", result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    json.put("seconds", seconds(result.elapsed()));
    return json;
  }

  /**
   * The compaction part of {@code maintain}; keys as the compact command's JSON, with what the
   * compaction cost.
   */
  public static Map<String, Object> json(CompactionResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("dry_run", result.dryRun());
    json.put("file_groups", result.fileGroups());
    json.put("input_files", result.inputFiles());
    json.put("output_files", result.outputFiles());
    json.put("input_bytes", result.inputBytes());
    json.put("output_bytes", result.outputBytes());
    json.put(
        "snapshot_id", result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    json.put("seconds", seconds(result.elapsed()));
    json.putAll(CostFields.of(result.cost()));
    return json;
  }

  public static Map<String, Object> json(MaintenanceResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("expire", result.expiry().map(MaintenanceReports::json).orElse(null));
    json.put("orphans", result.orphans().map(MaintenanceReports::json).orElse(null));
    json.put("compact", result.compaction().map(MaintenanceReports::json).orElse(null));
    json.put("manifests", result.manifests().map(MaintenanceReports::json).orElse(null));
    json.put("seconds", seconds(result.elapsed()));
    return json;
  }

  public static String human(SnapshotExpiryResult result) {
    return String.format(
        Locale.ROOT,
        "%s%s: %d snapshots expired, %d kept%s; %s %d data/delete files, %d manifests, %d manifest lists,"
            + " %d statistics files%s in %.1f s",
        result.dryRun() ? "Dry run, nothing changed. " : "",
        result.table(),
        result.expiredSnapshotIds().size(),
        result.retainedSnapshots(),
        result.removedRefs().isEmpty() ? "" : ", refs removed " + result.removedRefs(),
        result.dryRun() ? "would delete" : "deleted",
        result.deletedContentFiles(),
        result.deletedManifests(),
        result.deletedManifestLists(),
        result.deletedStatisticsFiles(),
        result.failedDeletes() == 0 ? "" : " (" + result.failedDeletes() + " could not be deleted)",
        seconds(result.elapsed()));
  }

  public static String human(OrphanRemovalResult result) {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "%s%s: listed %d files under %s, %d referenced; %d orphans older than %s %s%s; %d unreferenced files"
                + " kept as too new in %.1f s",
            result.dryRun() ? "Dry run, nothing deleted. " : "",
            result.table(),
            result.listedFiles(),
            result.location(),
            result.referencedFiles(),
            result.orphanFiles().size(),
            result.cutoff(),
            result.dryRun() ? "found" : "deleted " + result.deletedFiles(),
            result.failedDeletes() == 0
                ? ""
                : " (" + result.failedDeletes() + " could not be deleted)",
            result.tooNewFiles(),
            seconds(result.elapsed())));
    List<String> orphans = result.orphanFiles();
    for (int index = 0; index < Math.min(LISTED_ORPHANS, orphans.size()); index++) {
      text.append(System.lineSeparator()).append("  ").append(orphans.get(index));
    }
    if (orphans.size() > LISTED_ORPHANS) {
      text.append(System.lineSeparator())
          .append("  ... and ")
          .append(orphans.size() - LISTED_ORPHANS)
          .append(" more (--json lists all)");
    }
    return text.toString();
  }

  public static String human(ManifestRewriteResult result) {
    if (result.dryRun()) {
      return String.format(
          Locale.ROOT,
          "Dry run, nothing changed. %s: %d manifests, %d would be packed by size",
          result.table(),
          result.manifestsBefore(),
          result.rewrittenManifests());
    }
    if (result.snapshotId().isEmpty()) {
      return String.format(
          Locale.ROOT,
          "%s: %d manifests, nothing rewritten: %s",
          result.table(),
          result.manifestsBefore(),
          result.unchangedReason().orElse("nothing to rewrite"));
    }
    return String.format(
        Locale.ROOT,
        "%s: manifests %d -> %d (%d rewritten into %d) in %.1f s; snapshot %d",
        result.table(),
        result.manifestsBefore(),
        result.manifestsAfter(),
        result.rewrittenManifests(),
        result.addedManifests(),
        seconds(result.elapsed()),
        result.snapshotId().getAsLong());
  }

  public static String human(CompactionResult result) {
    return String.format(
        Locale.ROOT,
        "%s%d files in %d groups -> %d files",
        result.dryRun() ? "would rewrite " : "",
        result.inputFiles(),
        result.fileGroups(),
        result.outputFiles());
  }

  public static String human(MaintenanceResult result) {
    String line = System.lineSeparator();
    return "Maintained "
        + result.table()
        + String.format(Locale.ROOT, " in %.1f s", seconds(result.elapsed()))
        + line
        + "  expire:    "
        + result.expiry().map(MaintenanceReports::human).orElse("skipped")
        + line
        + "  orphans:   "
        + result.orphans().map(MaintenanceReports::human).orElse("skipped")
        + line
        + "  compact:   "
        + result.compaction().map(MaintenanceReports::human).orElse("skipped")
        + line
        + "  manifests: "
        + result.manifests().map(MaintenanceReports::human).orElse("skipped");
  }

  private static double seconds(Duration elapsed) {
    return elapsed.toNanos() / 1e9;
  }
}
