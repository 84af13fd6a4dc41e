package dev.lakeops.deletes;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * What {@code rewrite-position-deletes} did.
 *
 * @param table the table's full name
 * @param partitions partitions whose position deletes were rewritten
 * @param rewritten the delete files replaced, by kind
 * @param added the delete files written: one position delete file per partition (v2) or one
 *     deletion vector per data file (v3)
 * @param deletedRows deleted row positions the new files hold (positions of data files that no
 *     longer exist are dropped)
 * @param snapshotId the snapshot committed; empty for a dry run or when nothing qualified
 * @param elapsed wall time
 * @param dryRun whether nothing was changed
 * @param rewrittenBytes total size of the delete files replaced
 * @param addedBytes total size of the delete files written
 */
public record PositionDeleteRewriteResult(
    String table,
    int partitions,
    DeleteFileCounts rewritten,
    DeleteFileCounts added,
    long deletedRows,
    OptionalLong snapshotId,
    Duration elapsed,
    boolean dryRun,
    long rewrittenBytes,
    long addedBytes) {
  public PositionDeleteRewriteResult {
    requireNonNull(table, "table is null");
    requireNonNull(rewritten, "rewritten is null");
    requireNonNull(added, "added is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(elapsed, "elapsed is null");
  }
}
