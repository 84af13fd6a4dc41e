package dev.lakeops.rewrite.sort;

import java.io.IOException;

/**
 * Merges batches whose rows are each already in order into one ordered sequence, with a {@link
 * LoserTree} of batches keyed by their next row (ties go to the earlier batch, so the merge is
 * stable). Each batch is read front to back, so the copies that follow stay sequential in memory.
 */
final class SortedBatchMerge {
  /**
   * Compares the full key of row {@code leftRow} of batch {@code leftBatch} with that of {@code
   * rightRow} of {@code rightBatch}.
   */
  @FunctionalInterface
  interface RowComparator {
    int compare(int leftBatch, int leftRow, int rightBatch, int rightRow);
  }

  /** Receives each row in order. */
  @FunctionalInterface
  interface RowConsumer {
    void accept(int batch, int row) throws IOException;
  }

  private SortedBatchMerge() {}

  /**
   * Emits the rows of batches with {@code rowCounts} rows each to {@code consumer}, in order.
   *
   * @param prefixes per batch, its rows' key prefix slots ({@link SortKeys#PREFIX_SLOTS} per row)
   * @param fullKeys the order of rows' full keys, asked only when their prefixes tie
   */
  static void merge(
      int[] rowCounts, long[][] prefixes, RowComparator fullKeys, RowConsumer consumer)
      throws IOException {
    int batches = rowCounts.length;
    int[] positions = new int[batches];
    boolean[] empty = new boolean[batches];
    long[] heads = new long[Math.max(1, batches) * SortKeys.PREFIX_SLOTS];
    for (int batch = 0; batch < batches; batch++) {
      empty[batch] = rowCounts[batch] == 0;
      if (!empty[batch]) {
        System.arraycopy(
            prefixes[batch], 0, heads, batch * SortKeys.PREFIX_SLOTS, SortKeys.PREFIX_SLOTS);
      }
    }
    LoserTree tree =
        new LoserTree(
            empty,
            heads,
            (left, right) -> fullKeys.compare(left, positions[left], right, positions[right]));
    int batch;
    while ((batch = tree.winner()) >= 0) {
      int row = positions[batch]++;
      consumer.accept(batch, row);
      boolean exhausted = row + 1 == rowCounts[batch];
      if (!exhausted) {
        System.arraycopy(
            prefixes[batch],
            (row + 1) * SortKeys.PREFIX_SLOTS,
            heads,
            batch * SortKeys.PREFIX_SLOTS,
            SortKeys.PREFIX_SLOTS);
      }
      tree.advanceWinner(exhausted);
    }
  }
}
