package dev.lakeops.trigger;

import dev.lakeops.health.PartitionHealth;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Compaction of the partitions that need it: at least {@code compact.min-small-files} small files
 * (and some a bin-pack would merge), delete files for which {@link DeleteFileChoice} chose a
 * compaction, or mergeable small files after one commit added at least {@code
 * compact.min-small-files} small files, or at half that threshold when small files arrive fast
 * enough to reach it by the next check; and a rewrite of the position delete files of the
 * partitions for which that is the better choice. Guards: {@code compact.min-interval} since the
 * table's last compaction, and back-off when recent compactions mostly rewrote bytes earlier
 * compactions wrote (not for partitions due for deletes).
 */
final class CompactionTrigger {
  private static final int PARTITIONS_IN_REASON = 3;

  private CompactionTrigger() {}

  static void decide(
      TableHealthReport health,
      EffectivePolicy policy,
      MaintenanceHistory history,
      Instant now,
      List<DueOperation> due,
      List<HeldOperation> held) {
    if (!policy.compactEnabled()) {
      return;
    }
    long target = health.table().targetFileSizeBytes();
    boolean batch =
        health
            .largestSmallFileBatch()
            .map(found -> found.smallFiles() >= policy.minSmallFiles())
            .orElse(false);
    List<PartitionHealth> smallDue = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    Optional<Instant> lastCompaction =
        latest(
            history.lastFinished(MaintenanceOperation.COMPACT), health.table().lastDataRewrite());
    for (PartitionHealth partition : health.partitions()) {
      long mergeable = ConvergentPlan.of(partition, policy, target).mergeableFiles();
      Optional<Long> projected =
          projectedSmallFiles(
              partition, lastCompaction, now, policy.pollInterval(), policy.minSmallFiles());
      if (mergeable > 0 && partition.smallDataFiles() >= policy.minSmallFiles()) {
        smallDue.add(partition);
        reasons.add(
            partition.displayName()
                + ": "
                + partition.smallDataFiles()
                + " small files >= "
                + policy.minSmallFiles());
      } else if (mergeable > 0 && batch) {
        smallDue.add(partition);
        reasons.add(
            partition.displayName()
                + ": "
                + partition.smallDataFiles()
                + " small files after a commit added "
                + health.largestSmallFileBatch().orElseThrow().smallFiles()
                + " small files >= "
                + policy.minSmallFiles());
      } else if (mergeable > 0 && projected.isPresent()) {
        smallDue.add(partition);
        reasons.add(
            partition.displayName()
                + ": "
                + partition.smallDataFiles()
                + " small files, "
                + projected.get()
                + " >= "
                + policy.minSmallFiles()
                + " expected by the next check at the rate they arrive");
      }
    }
    // a batch load brings a compaction's worth of small files at once: the interval meant to let a
    // trickle of small commits gather does not hold it
    boolean intervalHolds =
        !batch
            && lastCompaction.isPresent()
            && lastCompaction.get().plus(policy.compactMinInterval()).isAfter(now);
    boolean backedOff =
        !smallDue.isEmpty()
            && notConverging(health, policy)
            && lastCompaction.isPresent()
            && lastCompaction.get().plus(policy.compactBackoff()).isAfter(now);
    boolean smallRuns = !smallDue.isEmpty() && !intervalHolds && !backedOff;
    DeleteChoices deletes =
        DeleteChoices.of(health, policy, target, smallDue, smallRuns, intervalHolds);
    reasons.addAll(deletes.compactReasons());
    deletes.rewrite().ifPresent(due::add);
    deletes.waiting().ifPresent(held::add);
    List<PartitionHealth> deletesDue = new ArrayList<>(deletes.compact());
    // a partition compacted for its deletes has its small files merged too: counted once
    smallDue.removeAll(deletesDue);
    if (smallDue.isEmpty() && deletesDue.isEmpty()) {
      return;
    }
    String reason = summarize(reasons);
    if (intervalHolds) {
      held.add(
          new HeldOperation(
              MaintenanceOperation.COMPACT,
              reason
                  + "; held by compact.min-interval "
                  + TimeInput.format(policy.compactMinInterval())
                  + ": last compaction "
                  + ago(lastCompaction.get(), now)
                  + " ago",
              Optional.of(lastCompaction.get().plus(policy.compactMinInterval()))));
      return;
    }
    if (backedOff) {
      held.add(
          new HeldOperation(
              MaintenanceOperation.COMPACT,
              String.format(
                  Locale.ROOT,
                  "%s; backed off for compact.backoff %s: the last %d compactions rewrote %.0f%% bytes"
                      + " written by earlier compactions > compact.max-recompacted-share %.0f%%",
                  summarize(reasons),
                  TimeInput.format(policy.compactBackoff()),
                  health.convergence().compactions(),
                  health.convergence().recompactedShare() * 100,
                  policy.maxRecompactedShare() * 100),
              Optional.of(lastCompaction.get().plus(policy.compactBackoff()))));
      if (deletesDue.isEmpty()) {
        return;
      }
      smallDue.clear();
      reasons.removeIf(text -> !text.contains("delete files"));
    }
    addEarlyPartitions(health, policy, target, smallDue, deletesDue, reasons);
    reason = summarize(reasons);
    List<PartitionHealth> partitions = new ArrayList<>(deletesDue);
    partitions.addAll(smallDue);
    long benefit = 0;
    long cost = 0;
    for (PartitionHealth partition : smallDue) {
      ConvergentPlan plan = ConvergentPlan.of(partition, policy, target);
      benefit += plan.mergeableFiles();
      cost += plan.bytes();
    }
    for (PartitionHealth partition : deletesDue) {
      benefit +=
          ConvergentPlan.of(partition, policy, target).mergeableFiles() + partition.deleteFiles();
      cost += partition.dataBytes();
    }
    due.add(
        new DueOperation(
            MaintenanceOperation.COMPACT,
            reason,
            partitions,
            PartitionFilter.where(health.specs(), partitions),
            rewriteOptions(policy, target, !deletesDue.isEmpty()),
            benefit,
            cost));
  }

  /**
   * The small files {@code partition} is expected to hold at the next check, one poll interval from
   * now, at the rate they arrived since the last compaction, when that reaches {@code
   * compact.min-small-files}: a partition that fills up between two checks is compacted at the
   * first, before it is unhealthy. Only for partitions at half the threshold or more, with a
   * compaction to measure the rate from.
   */
  private static Optional<Long> projectedSmallFiles(
      PartitionHealth partition,
      Optional<Instant> lastCompaction,
      Instant now,
      Duration pollInterval,
      int minSmallFiles) {
    long smallFiles = partition.smallDataFiles();
    if (lastCompaction.isEmpty() || smallFiles < (minSmallFiles + 1) / 2) {
      return Optional.empty();
    }
    long elapsedMillis = Duration.between(lastCompaction.get(), now).toMillis();
    // a compaction that just finished tells nothing of the rate yet
    if (elapsedMillis < pollInterval.toMillis() / 4) {
      return Optional.empty();
    }
    long expected =
        smallFiles
            + (long) Math.floor((double) smallFiles * pollInterval.toMillis() / elapsedMillis);
    return expected >= minSmallFiles ? Optional.of(expected) : Optional.empty();
  }

  /**
   * While the table is compacted anyway, partitions at half their small-file threshold or more go
   * along: they would cross it soon, and {@code compact.min-interval} would then hold them
   * (unhealthy) until the interval is over. Partitions with delete files at half their threshold
   * are chosen for by {@link DeleteFileChoice}.
   */
  private static void addEarlyPartitions(
      TableHealthReport health,
      EffectivePolicy policy,
      long target,
      List<PartitionHealth> smallDue,
      List<PartitionHealth> deletesDue,
      List<String> reasons) {
    int smallHalf = (policy.minSmallFiles() + 1) / 2;
    for (PartitionHealth partition : health.partitions()) {
      if (smallDue.contains(partition) || deletesDue.contains(partition)) {
        continue;
      }
      if (partition.smallDataFiles() >= smallHalf
          && ConvergentPlan.of(partition, policy, target).mergeableFiles() > 0) {
        smallDue.add(partition);
        reasons.add(
            partition.displayName()
                + ": "
                + partition.smallDataFiles()
                + " small files, with the table (>= "
                + smallHalf
                + ", half of "
                + policy.minSmallFiles()
                + ")");
      }
    }
  }

  /**
   * The rewrite options that keep a compaction to what the triggers found: the policy's options,
   * the target size, small files by the policy's ratio, no splitting of large files, groups from
   * two files, and every file with a delete when deletes are due.
   */
  static Map<String, String> rewriteOptions(
      EffectivePolicy policy, long targetFileSizeBytes, boolean deletesDue) {
    Map<String, String> options = new LinkedHashMap<>(policy.compactOptions());
    long target =
        options.containsKey(RewriteOptions.TARGET_FILE_SIZE_BYTES)
            ? Long.parseLong(options.get(RewriteOptions.TARGET_FILE_SIZE_BYTES).trim())
            : targetFileSizeBytes;
    policy
        .targetFileSize()
        .ifPresent(
            size ->
                options.putIfAbsent(
                    RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(size.bytes())));
    options.putIfAbsent(
        RewriteOptions.MIN_FILE_SIZE_BYTES,
        String.valueOf(Math.min(target - 1, policy.smallFileRule().thresholdBytes(target))));
    options.putIfAbsent(RewriteOptions.MAX_FILE_SIZE_BYTES, String.valueOf(Long.MAX_VALUE));
    // the trigger already decided these partitions need it: any two small files make a group
    options.putIfAbsent(RewriteOptions.MIN_INPUT_FILES, "2");
    // convergence: small compaction outputs wait for a target file's worth of new data
    options.putIfAbsent(RewriteOptions.RECOMPACT_MIN_BYTES, String.valueOf(target));
    options.putIfAbsent(
        RewriteOptions.RECOMPACT_MIN_FILES, String.valueOf(ConvergentPlan.outputsPileUp(policy)));
    if (deletesDue) {
      options.putIfAbsent(RewriteOptions.DELETE_FILE_THRESHOLD, "1");
    }
    return options;
  }

  private static boolean notConverging(TableHealthReport health, EffectivePolicy policy) {
    return health.convergence().compactions() >= 3
        && health.convergence().recompactedShare() > policy.maxRecompactedShare();
  }

  private static Optional<Instant> latest(Optional<Instant> first, Optional<Instant> second) {
    if (first.isEmpty()) {
      return second;
    }
    if (second.isEmpty()) {
      return first;
    }
    return Optional.of(first.get().isAfter(second.get()) ? first.get() : second.get());
  }

  static String ago(Instant then, Instant now) {
    Duration age = Duration.between(then, now);
    return TimeInput.format(age.isNegative() ? Duration.ZERO : Duration.ofSeconds(age.toSeconds()));
  }

  static String summarize(List<String> reasons) {
    if (reasons.size() <= PARTITIONS_IN_REASON) {
      return String.join("; ", reasons);
    }
    return String.join("; ", reasons.subList(0, PARTITIONS_IN_REASON))
        + "; and "
        + (reasons.size() - PARTITIONS_IN_REASON)
        + " more partitions";
  }
}
