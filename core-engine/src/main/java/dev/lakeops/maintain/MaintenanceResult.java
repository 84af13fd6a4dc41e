package dev.lakeops.maintain;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import java.time.Duration;
import java.util.Optional;

/**
 * The combined report of {@code maintain}; a skipped step's result is empty.
 *
 * @param table the table's full name
 * @param expiry what the expire step did
 * @param orphans what the orphan removal step did
 * @param compaction what the compact step did
 * @param manifests what the manifest rewrite step did
 * @param elapsed wall time of all steps
 */
public record MaintenanceResult(
    String table,
    Optional<SnapshotExpiryResult> expiry,
    Optional<OrphanRemovalResult> orphans,
    Optional<CompactionResult> compaction,
    Optional<ManifestRewriteResult> manifests,
    Duration elapsed) {
  public MaintenanceResult {
    requireNonNull(table, "table is null");
    requireNonNull(expiry, "expiry is null");
    requireNonNull(orphans, "orphans is null");
    requireNonNull(compaction, "compaction is null");
    requireNonNull(manifests, "manifests is null");
    requireNonNull(elapsed, "elapsed is null");
  }
}
