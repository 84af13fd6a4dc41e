package dev.lakeops.runs;

import dev.lakeops.maintain.MaintenanceStep;

/** The operation names the run ledger stores: the CLI's command names. */
public final class RunOperations {
  public static final String COMPACT = "compact";
  public static final String EXPIRE_SNAPSHOTS = "expire-snapshots";
  public static final String REMOVE_ORPHAN_FILES = "remove-orphan-files";
  public static final String REWRITE_MANIFESTS = "rewrite-manifests";
  public static final String REWRITE_POSITION_DELETES = "rewrite-position-deletes";

  private RunOperations() {}

  /** The operation a step of {@code maintain} records as. */
  public static String of(MaintenanceStep step) {
    return switch (step) {
      case EXPIRE -> EXPIRE_SNAPSHOTS;
      case ORPHANS -> REMOVE_ORPHAN_FILES;
      case COMPACT -> COMPACT;
      case MANIFESTS -> REWRITE_MANIFESTS;
    };
  }
}
