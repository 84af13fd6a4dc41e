package dev.lakeops.deletes;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * What {@code remove-dangling-deletes} did.
 *
 * @param table the table's full name
 * @param removed the delete files that no longer applied to any live data file, by kind
 * @param snapshotId the snapshot that removed them; empty for a dry run or when none were found
 * @param elapsed wall time
 * @param dryRun whether nothing was changed
 */
public record DanglingDeleteResult(
    String table,
    DeleteFileCounts removed,
    OptionalLong snapshotId,
    Duration elapsed,
    boolean dryRun) {
  public DanglingDeleteResult {
    requireNonNull(table, "table is null");
    requireNonNull(removed, "removed is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(elapsed, "elapsed is null");
  }
}
