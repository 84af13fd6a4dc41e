package dev.lakeops.rewrite.sort;

import java.util.Arrays;

/**
 * A stable least-significant-digit radix sort of {@code long}s by their high bits, read as an
 * unsigned number: 11 bits per pass, every pass's counts taken in one read, and passes whose digit
 * is the same for every value skipped. Values equal in the high bits keep their order, so low bits
 * that already come in order (row indexes) need no pass of their own. One sorter keeps its scratch
 * arrays from call to call, so sorting batch after batch allocates nothing.
 */
final class RadixSort {
  private static final int DIGIT_BITS = 11;
  private static final int RADIX = 1 << DIGIT_BITS;
  private static final int DIGIT_MASK = RADIX - 1;
  private static final int MAX_PASSES = (Long.SIZE + DIGIT_BITS - 1) / DIGIT_BITS;

  private final int[][] counts = new int[MAX_PASSES][RADIX];
  private long[] scratch = new long[0];

  /** Sorts {@code values[0, length)} by bits {@code [lowBit, 64)}, stably. */
  void sortByHighBits(long[] values, int length, int lowBit) {
    if (length < 2) {
      return;
    }
    int passes = (Long.SIZE - lowBit + DIGIT_BITS - 1) / DIGIT_BITS;
    for (int pass = 0; pass < passes; pass++) {
      Arrays.fill(counts[pass], 0);
    }
    for (int index = 0; index < length; index++) {
      long value = values[index];
      for (int pass = 0; pass < passes; pass++) {
        counts[pass][(int) ((value >>> (lowBit + pass * DIGIT_BITS)) & DIGIT_MASK)]++;
      }
    }
    if (scratch.length < length) {
      scratch = new long[Math.max(length, values.length)];
    }
    long[] source = values;
    long[] target = scratch;
    for (int pass = 0; pass < passes; pass++) {
      int shift = lowBit + pass * DIGIT_BITS;
      int[] count = counts[pass];
      if (count[(int) ((source[0] >>> shift) & DIGIT_MASK)] == length) {
        continue;
      }
      int position = 0;
      for (int digit = 0; digit < RADIX; digit++) {
        int digitCount = count[digit];
        count[digit] = position;
        position += digitCount;
      }
      for (int index = 0; index < length; index++) {
        long value = source[index];
        target[count[(int) ((value >>> shift) & DIGIT_MASK)]++] = value;
      }
      long[] sorted = target;
      target = source;
      source = sorted;
    }
    if (source != values) {
      System.arraycopy(source, 0, values, 0, length);
    }
  }
}
