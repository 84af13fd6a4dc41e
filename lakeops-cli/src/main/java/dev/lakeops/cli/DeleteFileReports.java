package dev.lakeops.cli;

import dev.lakeops.deletes.DanglingDeleteResult;
import dev.lakeops.deletes.DeleteFileCounts;
import dev.lakeops.deletes.PositionDeleteRewriteResult;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Renders the delete-file commands' results as JSON or as a human summary. */
final class DeleteFileReports {
  private DeleteFileReports() {}

  static Map<String, Object> json(DanglingDeleteResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    counts(json, "removed", result.removed());
    json.put(
        "snapshot_id", result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    json.put("seconds", result.elapsed().toNanos() / 1e9);
    return json;
  }

  static String human(DanglingDeleteResult result) {
    DeleteFileCounts removed = result.removed();
    return String.format(
        Locale.ROOT,
        "%s %d dangling delete files of %s (%d position delete files, %d equality delete files, %d deletion vectors)%s",
        result.dryRun() ? "Would remove" : "Removed",
        removed.total(),
        result.table(),
        removed.positionDeleteFiles(),
        removed.equalityDeleteFiles(),
        removed.deletionVectors(),
        result.snapshotId().isPresent() ? "; snapshot " + result.snapshotId().getAsLong() : "");
  }

  static Map<String, Object> json(PositionDeleteRewriteResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    json.put("partitions", result.partitions());
    counts(json, "rewritten", result.rewritten());
    counts(json, "added", result.added());
    json.put("deleted_rows", result.deletedRows());
    json.put(
        "snapshot_id", result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    json.put("seconds", result.elapsed().toNanos() / 1e9);
    return json;
  }

  static String human(PositionDeleteRewriteResult result) {
    return String.format(
        Locale.ROOT,
        "%s %d position delete files and %d deletion vectors in %d partitions of %s %s %d position delete files and %d deletion vectors (%d deleted rows)%s",
        result.dryRun() ? "Would rewrite" : "Rewrote",
        result.rewritten().positionDeleteFiles(),
        result.rewritten().deletionVectors(),
        result.partitions(),
        result.table(),
        result.dryRun() ? "" : "into",
        result.added().positionDeleteFiles(),
        result.added().deletionVectors(),
        result.deletedRows(),
        result.snapshotId().isPresent() ? "; snapshot " + result.snapshotId().getAsLong() : "");
  }

  private static void counts(Map<String, Object> json, String prefix, DeleteFileCounts counts) {
    json.put(prefix + "_position_delete_files", counts.positionDeleteFiles());
    json.put(prefix + "_equality_delete_files", counts.equalityDeleteFiles());
    json.put(prefix + "_deletion_vectors", counts.deletionVectors());
  }
}
