package dev.lakeops.rewrite.encode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Equality and unsigned order of byte ranges, eight bytes at a time. For the short values of a page
 * (names, codes, ids as text) this is cheaper than {@code Arrays.equals} and {@code
 * Arrays.compareUnsigned}, whose vectorized mismatch pays a fixed cost per call.
 */
final class ByteRanges {
  private static final VarHandle BIG_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private ByteRanges() {}

  static boolean equal(byte[] left, int leftStart, byte[] right, int rightStart, int length) {
    int index = 0;
    for (; index + Long.BYTES <= length; index += Long.BYTES) {
      if ((long) BIG_ENDIAN_LONGS.get(left, leftStart + index)
          != (long) BIG_ENDIAN_LONGS.get(right, rightStart + index)) {
        return false;
      }
    }
    for (; index < length; index++) {
      if (left[leftStart + index] != right[rightStart + index]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Negative, zero or positive as the left range sorts before, with or after the right, unsigned.
   */
  static int compareUnsigned(
      byte[] left, int leftStart, int leftLength, byte[] right, int rightStart, int rightLength) {
    int common = Math.min(leftLength, rightLength);
    int index = 0;
    for (; index + Long.BYTES <= common; index += Long.BYTES) {
      long leftBytes = (long) BIG_ENDIAN_LONGS.get(left, leftStart + index);
      long rightBytes = (long) BIG_ENDIAN_LONGS.get(right, rightStart + index);
      if (leftBytes != rightBytes) {
        return Long.compareUnsigned(leftBytes, rightBytes);
      }
    }
    for (; index < common; index++) {
      int difference = (left[leftStart + index] & 0xFF) - (right[rightStart + index] & 0xFF);
      if (difference != 0) {
        return difference;
      }
    }
    return Integer.compare(leftLength, rightLength);
  }
}
