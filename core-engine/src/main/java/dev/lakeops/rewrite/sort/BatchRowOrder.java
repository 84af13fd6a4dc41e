package dev.lakeops.rewrite.sort;

import java.util.Arrays;
import org.apache.arrow.vector.VarBinaryVector;

/**
 * The order of one batch's rows by sort key, stable, mostly without a comparator. The leading
 * {@link SortKeys#PREFIX_WORDS} words of the keys are read as one bit string, cut into chunks of
 * {@link #CHUNK_BITS} bits; each row becomes one {@code long} holding a chunk over its row index,
 * so a primitive sort ({@link RadixSort} for ranges of 256 rows or more, {@link
 * Arrays#sort(long[])} below) orders the rows by that chunk. Rows tied on a chunk are ordered by
 * the next chunk the same way, and rows tied on every chunk by their full keys ({@link
 * IndexSorter}). The row index in the low bits keeps equal keys in row order. One object orders
 * batch after batch, reusing its arrays.
 */
final class BatchRowOrder {
  private static final int INDEX_BITS = 13;
  private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
  private static final int CHUNK_BITS = Long.SIZE - INDEX_BITS;
  private static final int PREFIX_BITS = SortKeys.PREFIX_WORDS * Long.SIZE;
  private static final int CHUNKS = (PREFIX_BITS + CHUNK_BITS - 1) / CHUNK_BITS;
  private static final int RADIX_SORT_MIN_ROWS = 256;

  private final RadixSort radixSort = new RadixSort();

  /**
   * Packed values per chunk depth: a range's array is read again after its tied ranges are sorted.
   */
  private final long[][] packedByChunk = new long[CHUNKS][0];

  private int[] order = new int[0];
  private long[] prefixes;
  private VarBinaryVector keys;

  /**
   * @param prefixes the rows' prefix slots ({@link SortKeys#PREFIX_SLOTS} per row)
   * @param keys the rows' full keys
   * @return row indexes in key order in the first {@code rows} entries of an array this object
   *     reuses: valid until the next call
   */
  int[] order(long[] prefixes, VarBinaryVector keys, int rows) {
    if (rows > INDEX_MASK + 1) {
      throw new IllegalArgumentException(
          "At most " + (INDEX_MASK + 1) + " rows per batch, not " + rows);
    }
    this.prefixes = prefixes;
    this.keys = keys;
    if (order.length < rows) {
      order = new int[rows];
    }
    for (int row = 0; row < rows; row++) {
      order[row] = row;
    }
    try {
      sort(0, rows, 0);
    } finally {
      this.prefixes = null;
      this.keys = null;
    }
    return order;
  }

  /** Sorts {@code order[from, to)}, whose rows tie on every chunk before {@code chunk}. */
  private void sort(int from, int to, int chunk) {
    if (chunk == CHUNKS) {
      int[] tied = Arrays.copyOfRange(order, from, to);
      IndexSorter.sort(tied, tied.length, this::compareKeys);
      System.arraycopy(tied, 0, order, from, tied.length);
      return;
    }
    int length = to - from;
    if (packedByChunk[chunk].length < length) {
      packedByChunk[chunk] = new long[Math.max(length, ExternalSorter.BATCH_ROWS)];
    }
    long[] packed = packedByChunk[chunk];
    for (int index = from; index < to; index++) {
      int row = order[index];
      packed[index - from] = (chunk(row, chunk) << INDEX_BITS) | row;
    }
    sortUnsigned(packed, length);
    for (int index = from; index < to; index++) {
      order[index] = (int) (packed[index - from] & INDEX_MASK);
    }
    int start = 0;
    while (start < length) {
      long value = packed[start] & ~INDEX_MASK;
      int end = start + 1;
      while (end < length && (packed[end] & ~INDEX_MASK) == value) {
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
  private void sortUnsigned(long[] packed, int length) {
    if (length >= RADIX_SORT_MIN_ROWS) {
      radixSort.sortByHighBits(packed, length, INDEX_BITS);
      return;
    }
    for (int index = 0; index < length; index++) {
      packed[index] ^= Long.MIN_VALUE;
    }
    Arrays.sort(packed, 0, length);
    for (int index = 0; index < length; index++) {
      packed[index] ^= Long.MIN_VALUE;
    }
  }

  /**
   * Bits {@code [chunk * CHUNK_BITS, (chunk + 1) * CHUNK_BITS)} of the row's prefix words,
   * zero-padded.
   */
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
