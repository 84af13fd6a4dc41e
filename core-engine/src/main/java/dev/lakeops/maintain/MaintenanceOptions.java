package dev.lakeops.maintain;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The options of every step of {@code maintain}, and the steps to skip.
 *
 * @param skipped steps that do not run
 * @param expiry options of the expire step
 * @param orphans options of the orphan removal step
 * @param compaction the compaction request of the compact step
 * @param manifests options of the manifest rewrite step
 */
public record MaintenanceOptions(
    Set<MaintenanceStep> skipped,
    SnapshotExpiryOptions expiry,
    OrphanRemovalOptions orphans,
    CompactionRequest compaction,
    ManifestRewriteOptions manifests) {
  public MaintenanceOptions {
    skipped =
        skipped.isEmpty()
            ? Set.of()
            : Set.copyOf(EnumSet.copyOf(requireNonNull(skipped, "skipped is null")));
    requireNonNull(expiry, "expiry is null");
    requireNonNull(orphans, "orphans is null");
    requireNonNull(compaction, "compaction is null");
    requireNonNull(manifests, "manifests is null");
  }

  /** Every step with its defaults: table retention properties, 3-day orphan cutoff, binpack. */
  public static MaintenanceOptions defaults(Set<MaintenanceStep> skipped, boolean dryRun) {
    return new MaintenanceOptions(
        skipped,
        SnapshotExpiryOptions.builder().dryRun(dryRun).build(),
        OrphanRemovalOptions.builder().dryRun(dryRun).build(),
        CompactionRequest.builder().dryRun(dryRun).build(),
        ManifestRewriteOptions.defaults().withDryRun(dryRun));
  }

  public boolean runs(MaintenanceStep step) {
    return !skipped.contains(step);
  }
}
