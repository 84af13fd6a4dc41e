package dev.lakeops.trino.run;

import java.util.Locale;

/**
 * The figures a procedure run reports, one {@code BIGINT} column of {@code lakeops.system.runs}
 * each; names are those of the CLI's {@code --json} output. A run fills the ones that apply to it.
 */
public enum RunMetric {
  /** The snapshot the run committed (the last one when it committed several). */
  SNAPSHOT_ID,
  /** compact: data files rewritten. */
  INPUT_FILES,
  /** compact: data files added. */
  OUTPUT_FILES,
  /** compact: bytes of the rewritten data files. */
  INPUT_BYTES,
  /** compact: bytes of the added data files. */
  OUTPUT_BYTES,
  /** compact: delete files removed because every data file they applied to was rewritten. */
  REMOVED_DELETE_FILES,
  /** compact: the memory budget's peak. */
  PEAK_MEMORY_BYTES,
  /**
   * compact: file groups left out after a conflict, a failed commit or (partial progress) a failed
   * rewrite.
   */
  DROPPED_GROUPS,
  /** compact: input data files of the dropped groups, left as they were. */
  FAILED_DATA_FILES,
  /** expire_snapshots: snapshots expired. */
  EXPIRED_SNAPSHOTS,
  /**
   * expire_snapshots and remove_orphan_files: files deleted (data, delete, manifest, statistics
   * files).
   */
  DELETED_FILES,
  /** remove_orphan_files: files under the table location no snapshot references. */
  ORPHAN_FILES,
  /** rewrite_manifests: manifests replaced. */
  REWRITTEN_MANIFESTS,
  /** rewrite_manifests: manifests written. */
  ADDED_MANIFESTS,
  /** health: live data files. */
  DATA_FILES,
  /** health: live data files under 75% of the target file size. */
  SMALL_DATA_FILES;

  /** The column name, e.g. {@code input_files}. */
  public String columnName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
