package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A table's health from 0 to 100: the lowest of its four parts, each 100 when nothing of its kind
 * is due and falling with the share of the table that needs work.
 *
 * <ul>
 *   <li>{@code small-files}: 100 × (1 − M / D), D the live data files, M the small files a bin-pack
 *       would remove ({@link PartitionHealth#mergeableSmallFiles}) summed over the partitions
 *       holding at least {@code compact.min-small-files} small files.
 *   <li>{@code delete-files}: 100 × (1 − min(1, X / D)), X the delete files of the partitions
 *       holding at least {@code compact.min-delete-files} of them.
 *   <li>{@code manifests}: 100 × N / F when there are at least {@code manifests.min-count}
 *       manifests F averaging under the small-file ratio of {@code manifests.target-size}, N the
 *       manifests their bytes need at the target size; else 100.
 *   <li>{@code snapshots}: 100 × (1 − E / S), S the snapshots, E those beyond {@code
 *       expire.retain-last} older than {@code expire.older-than}.
 * </ul>
 *
 * @param score the lowest part's score
 * @param parts every part, in the order above
 */
public record HealthScore(int score, List<HealthPart> parts) {
  /** A score at or above this is healthy. */
  public static final int HEALTHY = 90;

  public HealthScore {
    parts = List.copyOf(requireNonNull(parts, "parts is null"));
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("A health score needs at least one part");
    }
  }

  public boolean healthy() {
    return score >= HEALTHY;
  }

  /** The part with the lowest score (the first of them on a tie). */
  public HealthPart worst() {
    return parts.stream().min(Comparator.comparingInt(HealthPart::score)).orElseThrow();
  }

  public static HealthScore compute(
      TableHealth table,
      List<PartitionHealth> partitions,
      long expirableSnapshots,
      HealthCriteria criteria) {
    requireNonNull(table, "table is null");
    requireNonNull(partitions, "partitions is null");
    requireNonNull(criteria, "criteria is null");
    List<HealthPart> parts =
        List.of(
            smallFiles(table, partitions, criteria),
            deleteFiles(table, partitions, criteria),
            manifests(table, criteria),
            snapshots(table, expirableSnapshots));
    return new HealthScore(parts.stream().mapToInt(HealthPart::score).min().orElseThrow(), parts);
  }

  private static HealthPart smallFiles(
      TableHealth table, List<PartitionHealth> partitions, HealthCriteria criteria) {
    long mergeable = 0;
    long partitionsDue = 0;
    for (PartitionHealth partition : partitions) {
      if (partition.smallDataFiles() >= criteria.minSmallFiles()) {
        long files = partition.mergeableSmallFiles(table.targetFileSizeBytes());
        mergeable += files;
        partitionsDue += files > 0 ? 1 : 0;
      }
    }
    int score = percent(1 - share(mergeable, table.dataFiles()));
    return new HealthPart(
        "small-files",
        score,
        String.format(
            Locale.ROOT,
            "%d of %d data files mergeable in %d partitions with >= %d small files",
            mergeable,
            table.dataFiles(),
            partitionsDue,
            criteria.minSmallFiles()));
  }

  private static HealthPart deleteFiles(
      TableHealth table, List<PartitionHealth> partitions, HealthCriteria criteria) {
    long excess = 0;
    long partitionsDue = 0;
    for (PartitionHealth partition : partitions) {
      if (partition.deleteFiles() >= criteria.minDeleteFiles()) {
        excess += partition.deleteFiles();
        partitionsDue++;
      }
    }
    int score = percent(1 - Math.min(1, share(excess, Math.max(1, table.dataFiles()))));
    return new HealthPart(
        "delete-files",
        score,
        String.format(
            Locale.ROOT,
            "%d delete files for %d data files in %d partitions with >= %d delete files",
            excess,
            table.dataFiles(),
            partitionsDue,
            criteria.minDeleteFiles()));
  }

  private static HealthPart manifests(TableHealth table, HealthCriteria criteria) {
    long target = criteria.manifestTargetSize().bytes();
    boolean many = table.manifests() >= criteria.manifestsMinCount();
    boolean small = criteria.smallFileRule().isSmall(table.averageManifestBytes(), target);
    long needed = Math.max(1, (table.manifestBytes() + target - 1) / target);
    int score =
        many && small
            ? percent(share(Math.min(needed, table.manifests()), table.manifests()))
            : 100;
    return new HealthPart(
        "manifests",
        score,
        String.format(
            Locale.ROOT,
            "%d manifests averaging %d bytes (%d would do; rewrite from %d)",
            table.manifests(),
            table.averageManifestBytes(),
            needed,
            criteria.manifestsMinCount()));
  }

  private static HealthPart snapshots(TableHealth table, long expirableSnapshots) {
    int score = percent(1 - share(expirableSnapshots, table.snapshots()));
    return new HealthPart(
        "snapshots",
        score,
        String.format(
            Locale.ROOT, "%d of %d snapshots expirable", expirableSnapshots, table.snapshots()));
  }

  private static double share(long part, long whole) {
    return whole == 0 ? 0 : part / (double) whole;
  }

  private static int percent(double fraction) {
    return (int) Math.max(0, Math.min(100, Math.floor(fraction * 100)));
  }
}
