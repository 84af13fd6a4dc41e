package dev.lakeops.health;

/**
 * The largest batch of small data files one commit added since the table's last rewrite, read from
 * snapshot summaries ({@code added-data-files}, {@code added-files-size}).
 *
 * @param snapshotId the commit that added them
 * @param smallFiles data files it added (all of them small: their average size is under the
 *     small-file threshold)
 */
public record SmallFileBatch(long snapshotId, long smallFiles) {}
