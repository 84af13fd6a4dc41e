package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * What an expiry did, or would do for a dry run.
 *
 * @param table the table's full name
 * @param expiredSnapshotIds snapshots removed from the metadata
 * @param retainedSnapshots snapshots left
 * @param removedRefs branches and tags dropped because they outlived {@code max-ref-age-ms}
 * @param deletedDataFiles data files deleted
 * @param deletedPositionDeleteFiles position delete files (and deletion-vector Puffin files)
 *     deleted
 * @param deletedEqualityDeleteFiles equality delete files deleted
 * @param deletedManifests manifests deleted
 * @param deletedManifestLists manifest lists deleted
 * @param deletedStatisticsFiles statistics and partition statistics files deleted
 * @param failedDeletes files that could not be deleted (left for orphan removal)
 * @param elapsed wall time
 * @param dryRun whether nothing was changed
 */
public record SnapshotExpiryResult(
    String table,
    List<Long> expiredSnapshotIds,
    int retainedSnapshots,
    List<String> removedRefs,
    long deletedDataFiles,
    long deletedPositionDeleteFiles,
    long deletedEqualityDeleteFiles,
    long deletedManifests,
    long deletedManifestLists,
    long deletedStatisticsFiles,
    long failedDeletes,
    Duration elapsed,
    boolean dryRun) {
  public SnapshotExpiryResult {
    requireNonNull(table, "table is null");
    expiredSnapshotIds =
        List.copyOf(requireNonNull(expiredSnapshotIds, "expiredSnapshotIds is null"));
    removedRefs = List.copyOf(requireNonNull(removedRefs, "removedRefs is null"));
    requireNonNull(elapsed, "elapsed is null");
  }

  /** Data and delete files deleted. */
  public long deletedContentFiles() {
    return deletedDataFiles + deletedPositionDeleteFiles + deletedEqualityDeleteFiles;
  }

  public long deletedFiles() {
    return deletedContentFiles() + deletedManifests + deletedManifestLists + deletedStatisticsFiles;
  }
}
