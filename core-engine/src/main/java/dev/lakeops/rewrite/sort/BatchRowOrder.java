package dev.lakeops.rewrite.sort;

import java.util.Arrays;
import org.apache.arrow.vector.VarBinaryVector;

/**
 * The order of one batch's rows by sort key, stable, mostly without a comparator. The leading
 * {@link SortKeys#PREFIX_WORDS} words of the keys are read as one bit string, cut into chunks of
 * {@link #CHUNK_BITS} bits; each row becomes one {@code long} holding a chunk over its row index,
 * so a primitive sort ({@link RadixSort} for ranges of 1,024 rows or more, {@link Arrays#sort(long[])}
 * below) orders the rows by that chunk. Rows tied on a chunk
 * are ordered by the next chunk the same way, and rows tied on every chunk by their full keys
 * ({@link IndexSorter}). The row index in the low bits keeps equal keys in row order.
 */
final class BatchRowOrder {
  private static final int INDEX_BITS = 13;
  private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
  private static final int CHUNK_BITS = Long.SIZE - INDEX_BITS;
  private static final int PREFIX_BITS = SortKeys.PREFIX_WORDS * Long.SIZE;
  private static final int CHUNKS = (PREFIX_BITS + CHUNK_BITS - 1) / CHUNK_BITS;
  private static final int RADIX_SORT_MIN_ROWS = 1024;

  private final long[] prefixes;
  private final VarBinaryVector keys;
  private final int[] order;

  private BatchRowOrder(long[] prefixes, VarBinaryVector keys, int rows) {
    this.prefixes = prefixes;
    this.keys = keys;
    this.order = new int[rows];
  }

  /**
   * @param prefixes the rows' prefix slots ({@link SortKeys#PREFIX_SLOTS} per row)
   * @param keys the rows' full keys
   * @return row indexes in key order
   */
  static int[] of(long[] prefixes, VarBinaryVector keys, int rows) {
    if (rows > INDEX_MASK + 1) {
      throw new IllegalArgumentException("At most " + (INDEX_MASK + 1) + " rows per batch, not " + rows);
    }
    BatchRowOrder rowOrder = new BatchRowOrder(prefixes, keys, rows);
    for (int row = 0; row < rows; row++) {
      rowOrder.order[row] = row;
    }
    rowOrder.sort(0, rows, 0);
    return rowOrder.order;
  }

  /** Sorts {@code order[from, to)}, whose rows tie on every chunk before {@code chunk}. */
  private void sort(int from, int to, int chunk) {
    if (chunk == CHUNKS) {
      int[] tied = Arrays.copyOfRange(order, from, to);
      IndexSorter.sort(tied, tied.length, this::compareKeys);
      System.arraycopy(tied, 0, order, from, tied.length);
      return;
    }
    long[] packed = new long[to - from];
    for (int index = from; index < to; index++) {
      int row = order[index];
      packed[index - from] = (chunk(row, chunk) << INDEX_BITS) | row;
    }
    sortUnsigned(packed);
    for (int index = from; index < to; index++) {
      order[index] = (int) (packed[index - from] & INDEX_MASK);
    }
    int start = 0;
    while (start < packed.length) {
      long value = packed[start] & ~INDEX_MASK;
      int end = start + 1;
      while (end < packed.length && (packed[end] & ~INDEX_MASK) == value) {
        end++;
      }
      if (end - start > 1) {
        sort(from + start, from + end, chunk + 1);
      }
      start = end;
    }
  }

  /**
   * Sorts packed chunk-over-row values as unsigned numbers. The rows of a range come in ascending
   * order (all rows at first, then rows tied on the chunk before, in the order that sort left
   * them), so a stable sort of the chunk bits alone orders by chunk, then row.
   */
  private static void sortUnsigned(long[] packed) {
    if (packed.length >= RADIX_SORT_MIN_ROWS) {
      RadixSort.sortByHighBits(packed, packed.length, INDEX_BITS);
      return;
    }
    for (int index = 0; index < packed.length; index++) {
      packed[index] ^= Long.MIN_VALUE;
    }
    Arrays.sort(packed);
    for (int index = 0; index < packed.length; index++) {
      packed[index] ^= Long.MIN_VALUE;
    }
  }

  /** Bits {@code [chunk * CHUNK_BITS, (chunk + 1) * CHUNK_BITS)} of the row's prefix words, zero-padded. */
  private long chunk(int row, int chunk) {
    int offset = chunk * CHUNK_BITS;
    int word = offset / Long.SIZE;
    int shift = offset % Long.SIZE;
    int base = row * SortKeys.PREFIX_SLOTS;
    long high = prefixes[base + word] << shift;
    if (shift > 0 && word + 1 < SortKeys.PREFIX_WORDS) {
      high |= prefixes[base + word + 1] >>> (Long.SIZE - shift);
    }
    return high >>> INDEX_BITS;
  }

  private int compareKeys(int left, int right) {
    return SortKeys.compareRows(prefixes, keys, left, prefixes, keys, right);
  }
}
