package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.time.Duration;
import java.util.Optional;

/**
 * The thresholds health is measured against; the policy's values, or the built-in defaults.
 *
 * @param smallFileRule which data files are small
 * @param targetFileSize the target file size; empty means the table's {@code
 *     write.target-file-size-bytes}
 * @param minSmallFiles small files in one partition from which it needs a compaction
 * @param minDeleteFiles delete files in one partition from which it needs a compaction
 * @param manifestsMinCount manifests from which the manifests may need a rewrite
 * @param manifestTargetSize the manifest size a rewrite aims for; smaller manifests are small
 * @param retainLast snapshots always kept
 * @param expireOlderThan snapshots beyond {@code retainLast} older than this can be expired
 */
public record HealthCriteria(
    SmallFileRule smallFileRule,
    Optional<ByteSize> targetFileSize,
    int minSmallFiles,
    int minDeleteFiles,
    int manifestsMinCount,
    ByteSize manifestTargetSize,
    int retainLast,
    Duration expireOlderThan) {

  public HealthCriteria {
    requireNonNull(smallFileRule, "smallFileRule is null");
    requireNonNull(targetFileSize, "targetFileSize is null");
    requireNonNull(manifestTargetSize, "manifestTargetSize is null");
    requireNonNull(expireOlderThan, "expireOlderThan is null");
  }

  /** The built-in defaults (the same as the policy's defaults). */
  public static HealthCriteria defaults() {
    return new HealthCriteria(
        SmallFileRule.defaults(),
        Optional.empty(),
        12,
        10,
        50,
        ByteSize.ofMegabytes(8),
        1,
        Duration.ofDays(5));
  }
}
