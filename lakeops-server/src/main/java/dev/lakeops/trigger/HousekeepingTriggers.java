package dev.lakeops.trigger;

import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.TimeInput;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Expiry, orphan cleanup and manifest rewrite: the metadata-side triggers. */
final class HousekeepingTriggers {
  private HousekeepingTriggers() {}

  static void expiry(TableHealthReport health, EffectivePolicy policy, List<DueOperation> due) {
    if (policy.expireEnabled() && health.expirableSnapshots() > 0) {
      due.add(
          DueOperation.of(
              MaintenanceOperation.EXPIRE_SNAPSHOTS,
              health.expirableSnapshots()
                  + " snapshots beyond expire.retain-last "
                  + policy.expireRetainLast()
                  + " older than expire.older-than "
                  + TimeInput.format(policy.expireOlderThan()),
              health.expirableSnapshots(),
              1));
    }
  }

  static void orphans(
      TableHealthReport health,
      EffectivePolicy policy,
      MaintenanceHistory history,
      Instant now,
      List<DueOperation> due,
      List<HeldOperation> held) {
    if (!policy.orphansEnabled() || health.snapshotId().isEmpty()) {
      return;
    }
    Optional<Instant> last = history.lastFinished(MaintenanceOperation.REMOVE_ORPHAN_FILES);
    String reason;
    if (last.isEmpty()) {
      reason = "no orphan cleanup recorded";
    } else if (history.lastOrphanRunFailed()) {
      reason =
          "the last orphan cleanup (" + CompactionTrigger.ago(last.get(), now) + " ago) failed";
    } else if (!last.get().plus(policy.orphansInterval()).isAfter(now)) {
      reason =
          "last orphan cleanup "
              + CompactionTrigger.ago(last.get(), now)
              + " ago >= orphans.interval "
              + TimeInput.format(policy.orphansInterval());
    } else {
      held.add(
          new HeldOperation(
              MaintenanceOperation.REMOVE_ORPHAN_FILES,
              "orphans.interval "
                  + TimeInput.format(policy.orphansInterval())
                  + ": last cleanup "
                  + CompactionTrigger.ago(last.get(), now)
                  + " ago",
              Optional.of(last.get().plus(policy.orphansInterval()))));
      return;
    }
    due.add(
        DueOperation.of(
            MaintenanceOperation.REMOVE_ORPHAN_FILES,
            reason + " (files older than " + TimeInput.format(policy.orphansOlderThan()) + ")",
            1,
            1));
  }

  static void manifests(TableHealthReport health, EffectivePolicy policy, List<DueOperation> due) {
    TableHealth table = health.table();
    long target = policy.manifestsTargetSize().bytes();
    if (!policy.manifestsEnabled()
        || table.manifests() < policy.manifestsMinCount()
        || !policy.smallFileRule().isSmall(table.averageManifestBytes(), target)) {
      return;
    }
    long needed = Math.max(1, (table.manifestBytes() + target - 1) / target);
    if (needed >= table.manifests()) {
      return;
    }
    due.add(
        DueOperation.of(
            MaintenanceOperation.REWRITE_MANIFESTS,
            String.format(
                Locale.ROOT,
                "%d manifests >= manifests.min-count %d, averaging %d KB (small under %d KB)",
                table.manifests(),
                policy.manifestsMinCount(),
                table.averageManifestBytes() / 1024,
                policy.smallFileRule().thresholdBytes(target) / 1024),
            table.manifests() - needed,
            table.manifestBytes()));
  }
}
