package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a manifest rewrite did.
 *
 * @param table the table's full name
 * @param manifestsBefore manifests (data and delete) of the current snapshot before
 * @param manifestsAfter manifests of the current snapshot after (before, for a dry run)
 * @param rewrittenManifests manifests replaced (that would be, for a dry run)
 * @param addedManifests manifests written
 * @param snapshotId the committed snapshot, empty when nothing was committed
 * @param elapsed wall time
 * @param dryRun whether nothing was changed
 * @param unchangedReason why nothing was committed, when the rewrite was refused or had nothing to
 *     do (never for a dry run)
 */
public record ManifestRewriteResult(
    String table,
    int manifestsBefore,
    int manifestsAfter,
    int rewrittenManifests,
    int addedManifests,
    OptionalLong snapshotId,
    Duration elapsed,
    boolean dryRun,
    Optional<String> unchangedReason) {
  public ManifestRewriteResult {
    requireNonNull(table, "table is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(elapsed, "elapsed is null");
    requireNonNull(unchangedReason, "unchangedReason is null");
  }
}
