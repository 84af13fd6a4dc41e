package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.DeleteFileCounts;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * What {@code convert-equality-deletes} did.
 *
 * @param table the table's full name
 * @param partitions partitions whose data files the converted equality deletes applied to
 * @param removed the equality delete files removed, plus deletion vectors replaced by merged ones
 * @param added the position delete files (v2, one per partition) or deletion vectors (v3, one per
 *     data file) written
 * @param deletedRows row positions the new files delete
 * @param spilledBytes bytes the anti-join spilled (zero when the keys fit the budget)
 * @param snapshotId the snapshot committed; empty for a dry run or when nothing qualified
 * @param elapsed wall time
 * @param dryRun whether nothing was changed
 */
public record ConversionResult(
    String table,
    int partitions,
    DeleteFileCounts removed,
    DeleteFileCounts added,
    long deletedRows,
    long spilledBytes,
    OptionalLong snapshotId,
    Duration elapsed,
    boolean dryRun) {
  public ConversionResult {
    requireNonNull(table, "table is null");
    requireNonNull(removed, "removed is null");
    requireNonNull(added, "added is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(elapsed, "elapsed is null");
  }
}
