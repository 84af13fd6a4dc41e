package dev.lakeops.rewrite.sort;

import java.io.IOException;

/**
 * Merges batches whose rows are each already in order into one ordered sequence, with a
 * {@link LoserTree} of batches keyed by their next row (ties go to the earlier batch, so the merge
 * is stable).
 * Each batch is read front to back, so the copies that follow stay sequential in memory.
 */
final class SortedBatchMerge {
  /** Compares row {@code leftRow} of batch {@code leftBatch} with row {@code rightRow} of {@code rightBatch}. */
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

  /** Emits the rows of batches with {@code rowCounts} rows each to {@code consumer}, in order. */
  static void merge(int[] rowCounts, RowComparator comparator, RowConsumer consumer) throws IOException {
    int[] positions = new int[rowCounts.length];
    boolean[] empty = new boolean[rowCounts.length];
    for (int batch = 0; batch < rowCounts.length; batch++) {
      empty[batch] = rowCounts[batch] == 0;
    }
    LoserTree tree =
        new LoserTree(empty, (left, right) -> comparator.compare(left, positions[left], right, positions[right]));
    int batch;
    while ((batch = tree.winner()) >= 0) {
      consumer.accept(batch, positions[batch]++);
      tree.advanceWinner(positions[batch] == rowCounts[batch]);
    }
  }
}
