package dev.lakeops.trigger;

import dev.lakeops.health.PartitionHealth;
import dev.lakeops.policy.EffectivePolicy;

/**
 * The small files of one partition a compaction would rewrite under the convergence rule (the
 * planner's {@code recompact-min-bytes} and {@code recompact-min-files}, which the triggers set):
 * small files an earlier compaction wrote are left out until writers have added a target file's
 * worth of small files since, or until they number {@link #outputsPileUp} (then a compaction of the
 * new files alone could no longer bring the partition under {@code compact.min-small-files}).
 *
 * @param files small files to rewrite
 * @param bytes their total size
 * @param targetFileSizeBytes the target file size
 */
record ConvergentPlan(long files, long bytes, long targetFileSizeBytes) {
  static ConvergentPlan of(
      PartitionHealth partition, EffectivePolicy policy, long targetFileSizeBytes) {
    boolean withOutputs =
        partition.freshSmallBytes() >= targetFileSizeBytes
            || partition.compactedSmallFiles() >= outputsPileUp(policy);
    return withOutputs
        ? new ConvergentPlan(
            partition.smallDataFiles(), partition.smallDataBytes(), targetFileSizeBytes)
        : new ConvergentPlan(
            partition.freshSmallFiles(), partition.freshSmallBytes(), targetFileSizeBytes);
  }

  /** Small compaction outputs from which a partition's outputs are rewritten with its new files. */
  static int outputsPileUp(EffectivePolicy policy) {
    return Math.max(2, policy.minSmallFiles() - 1);
  }

  /**
   * Files a bin-pack of them removes: the files minus those their bytes need (0 under two files).
   */
  long mergeableFiles() {
    if (files < 2) {
      return 0;
    }
    long needed = Math.max(1, (bytes + targetFileSizeBytes - 1) / targetFileSizeBytes);
    return Math.max(0, files - needed);
  }
}
