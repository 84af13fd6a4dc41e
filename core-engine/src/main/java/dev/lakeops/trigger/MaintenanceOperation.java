package dev.lakeops.trigger;

/** The maintenance operations the triggers decide on. */
public enum MaintenanceOperation {
  COMPACT,
  EXPIRE_SNAPSHOTS,
  REMOVE_ORPHAN_FILES,
  REWRITE_MANIFESTS
}
