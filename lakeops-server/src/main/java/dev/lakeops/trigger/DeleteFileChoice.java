package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.PartitionHealth;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.ByteSize;
import java.util.Locale;

/**
 * What to do about one partition's delete files, by predicted benefit per byte written: the delete
 * files a run removes from the partition (what the {@code delete-files} health part counts) per
 * byte it writes.
 *
 * <ul>
 *   <li>{@link Action#COMPACT}: rewrite the data files the deletes apply to, applying them. Writes
 *       those data files: each position delete file that names one data file touches one file of
 *       the partition's average size; a delete file that may name several (a rewritten one) and an
 *       equality delete file may touch every data file of the partition. Small files a compaction
 *       of the table rewrites anyway cost nothing more. Removes every delete file.
 *   <li>{@link Action#REWRITE_DELETES}: compact the position delete files into one per partition,
 *       data files untouched. Writes about the delete files' bytes; removes all but one.
 *   <li>{@link Action#WAIT}: below {@code compact.min-delete-files}, unless the partition is at
 *       half of it and the cheaper choice is there (a delete-file rewrite, or a compaction that
 *       runs anyway): the table is still healthy and the files may yet be rewritten for other
 *       reasons.
 * </ul>
 *
 * Only position deletes can be rewritten on their own; a partition with equality deletes (or with
 * deletion vectors only, which a rewrite would not merge) is compacted.
 *
 * @param action what to do
 * @param benefit delete files the run removes from the partition
 * @param costBytes bytes the run is predicted to write for them (at least 1)
 * @param reason the choice and the figures it was made on, for the log, the queue and {@code
 *     status}
 */
record DeleteFileChoice(Action action, long benefit, long costBytes, String reason) {
  enum Action {
    COMPACT,
    REWRITE_DELETES,
    WAIT
  }

  DeleteFileChoice {
    requireNonNull(action, "action is null");
    requireNonNull(reason, "reason is null");
    costBytes = Math.max(1, costBytes);
  }

  /**
   * The choice for {@code partition}.
   *
   * @param compactedAnyway whether a compaction of the table's small files runs now and takes this
   *     partition's small files along
   * @param compactionHeld whether a guard ({@code compact.min-interval}) holds compactions of the
   *     table now: a partition due for its deletes then has its delete files rewritten if it can
   */
  static DeleteFileChoice of(
      PartitionHealth partition,
      EffectivePolicy policy,
      boolean compactedAnyway,
      boolean compactionHeld) {
    long files = partition.deleteFiles();
    int threshold = policy.minDeleteFiles();
    int half = (threshold + 1) / 2;
    if (files == 0 || files < half) {
      return new DeleteFileChoice(Action.WAIT, 0, 1, "");
    }
    long dataBytes = compactionBytes(partition, compactedAnyway);
    long rewritable = partition.positionDeleteFiles() - partition.deletionVectors();
    boolean canRewrite = partition.equalityDeleteFiles() == 0 && rewritable >= 2;
    long deleteBytes = Math.max(1, partition.positionDeleteBytes());
    long deleteBenefit = rewritable - 1;
    double perByteCompact = files / (double) Math.max(1, dataBytes);
    double perByteRewrite = canRewrite ? deleteBenefit / (double) deleteBytes : 0;
    boolean due = files >= threshold;
    String figures =
        String.format(
            Locale.ROOT,
            "rewriting the delete files removes %d per %s written, compacting the data they touch"
                + " %d per %s",
            Math.max(0, deleteBenefit),
            ByteSize.ofBytes(deleteBytes),
            files,
            ByteSize.ofBytes(Math.max(1, dataBytes)));
    String count =
        partition.displayName()
            + ": "
            + files
            + " delete files "
            + (due ? ">= " + threshold : "(>= " + half + ", half of " + threshold + ")");
    if (canRewrite && perByteRewrite > perByteCompact) {
      return new DeleteFileChoice(
          Action.REWRITE_DELETES,
          deleteBenefit,
          deleteBytes,
          count + "; rewrite-position-deletes: " + figures);
    }
    if (canRewrite && due && compactionHeld) {
      return new DeleteFileChoice(
          Action.REWRITE_DELETES,
          deleteBenefit,
          deleteBytes,
          count + "; rewrite-position-deletes, compaction held: " + figures);
    }
    if (due || compactedAnyway) {
      return new DeleteFileChoice(
          Action.COMPACT, files, dataBytes, count + (canRewrite ? "; compact: " + figures : ""));
    }
    return new DeleteFileChoice(Action.WAIT, 0, 1, count + "; wait: " + figures);
  }

  /**
   * Bytes a compaction writes to apply the partition's deletes: the data files they touch, less the
   * small files a compaction running anyway rewrites.
   */
  private static long compactionBytes(PartitionHealth partition, boolean compactedAnyway) {
    if (partition.dataFiles() == 0) {
      return 0;
    }
    long touched;
    if (partition.equalityDeleteFiles() > 0 || partition.sharedPositionDeleteFiles() > 0) {
      touched = partition.dataBytes();
    } else {
      long average = partition.dataBytes() / partition.dataFiles();
      touched = Math.min(partition.dataBytes(), partition.positionDeleteFiles() * average);
    }
    if (!compactedAnyway || partition.dataBytes() == 0) {
      return touched;
    }
    double largeShare =
        (partition.dataBytes() - partition.smallDataBytes()) / (double) partition.dataBytes();
    return Math.round(touched * largeShare);
  }
}
