package dev.lakeops.rewrite.sort;

import java.io.IOException;

/**
 * Merges batches whose rows are each already in order into one ordered sequence, with a binary
 * heap of batches keyed by their next row (ties go to the earlier batch, so the merge is stable).
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

  private final int[] rowCounts;
  private final RowComparator comparator;
  private final int[] positions;
  private final int[] heap;
  private int size;

  private SortedBatchMerge(int[] rowCounts, RowComparator comparator) {
    this.rowCounts = rowCounts;
    this.comparator = comparator;
    this.positions = new int[rowCounts.length];
    this.heap = new int[rowCounts.length];
  }

  /** Emits the rows of batches with {@code rowCounts} rows each to {@code consumer}, in order. */
  static void merge(int[] rowCounts, RowComparator comparator, RowConsumer consumer) throws IOException {
    new SortedBatchMerge(rowCounts, comparator).run(consumer);
  }

  private void run(RowConsumer consumer) throws IOException {
    for (int batch = 0; batch < rowCounts.length; batch++) {
      if (rowCounts[batch] > 0) {
        heap[size++] = batch;
      }
    }
    for (int index = size / 2 - 1; index >= 0; index--) {
      siftDown(index);
    }
    while (size > 0) {
      int batch = heap[0];
      consumer.accept(batch, positions[batch]++);
      if (positions[batch] == rowCounts[batch]) {
        heap[0] = heap[--size];
      }
      siftDown(0);
    }
  }

  private void siftDown(int index) {
    int batch = heap[index];
    while (true) {
      int child = 2 * index + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && less(heap[child + 1], heap[child])) {
        child++;
      }
      if (!less(heap[child], batch)) {
        break;
      }
      heap[index] = heap[child];
      index = child;
    }
    heap[index] = batch;
  }

  private boolean less(int leftBatch, int rightBatch) {
    int byRow = comparator.compare(leftBatch, positions[leftBatch], rightBatch, positions[rightBatch]);
    return byRow != 0 ? byRow < 0 : leftBatch < rightBatch;
  }
}
