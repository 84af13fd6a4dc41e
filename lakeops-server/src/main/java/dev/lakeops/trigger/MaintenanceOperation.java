package dev.lakeops.trigger;

/** The maintenance operations the triggers decide on. */
public enum MaintenanceOperation {
  COMPACT,
  /** Compaction of position delete files alone (data files untouched), chosen per table. */
  REWRITE_POSITION_DELETES,
  EXPIRE_SNAPSHOTS,
  REMOVE_ORPHAN_FILES,
  REWRITE_MANIFESTS;

  /** Whether the operation rewrites table files (counted in {@code max-bytes-per-hour}). */
  public boolean rewritesFiles() {
    return this == COMPACT || this == REWRITE_POSITION_DELETES;
  }
}
