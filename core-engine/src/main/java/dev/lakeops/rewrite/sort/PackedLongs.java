package dev.lakeops.rewrite.sort;

import java.util.Arrays;

/**
 * 64-bit values packed as their distances from the smallest, divided by the distances' greatest
 * common divisor, each in as many bits as the largest needs: ids of a few million take 22–27 bits,
 * timestamps of whole seconds (multiples of a million microseconds) within a day 17, where a fast
 * compressor leaves four or five bytes and costs far more time on both sides.
 *
 * <p>Layout (little-endian): the smallest value (8 bytes), the divisor (8 bytes), the bit width (1
 * byte), then the quotients' bits, value 0 first, low bits first, then {@value #PADDING_BYTES} zero
 * bytes, so that every value is read with one 8-byte load. Widths above {@value #MAX_WIDTH} are not
 * packed: a value would not fit one load, and the compressor does as well there.
 */
final class PackedLongs {
  /** The widest width packed. */
  static final int MAX_WIDTH = 56;

  static final int HEADER_BYTES = 2 * Long.BYTES + 1;

  static final int PADDING_BYTES = Long.BYTES;

  private PackedLongs() {}

  /** The most bytes {@link #pack} writes for {@code count} values. */
  static int maxPackedBytes(int count) {
    return HEADER_BYTES + count * Long.BYTES + PADDING_BYTES;
  }

  /**
   * Packs the {@code count} little-endian longs at the start of {@code source} into {@code target}
   * at {@code at} (room for {@link #maxPackedBytes}); returns the bytes written, or -1 when they
   * would need more than {@value #MAX_WIDTH} bits each (nothing useful written then).
   */
  static int pack(byte[] source, int count, byte[] target, int at) {
    if (count == 0) {
      return -1;
    }
    long smallest = Long.MAX_VALUE;
    long largest = Long.MIN_VALUE;
    for (int index = 0; index < count; index++) {
      long value = RunFormat.getLong(source, index * Long.BYTES);
      smallest = Math.min(smallest, value);
      largest = Math.max(largest, value);
    }
    long range = largest - smallest;
    if (range < 0) {
      return -1;
    }
    long divisor = range == 0 ? 1 : commonDivisor(source, count, smallest);
    int width = 64 - Long.numberOfLeadingZeros(range / divisor);
    if (width > MAX_WIDTH) {
      return -1;
    }
    RunFormat.putLong(target, at, smallest);
    RunFormat.putLong(target, at + Long.BYTES, divisor);
    target[at + 2 * Long.BYTES] = (byte) width;
    int position = at + HEADER_BYTES;
    if (width > 0) {
      long word = 0;
      int filled = 0;
      for (int index = 0; index < count; index++) {
        long distance = RunFormat.getLong(source, index * Long.BYTES) - smallest;
        long quotient = divisor == 1 ? distance : distance / divisor;
        word |= quotient << filled;
        filled += width;
        if (filled >= Long.SIZE) {
          RunFormat.putLong(target, position, word);
          position += Long.BYTES;
          filled -= Long.SIZE;
          word = filled == 0 ? 0 : quotient >>> (width - filled);
        }
      }
      RunFormat.putLong(target, position, word);
      position += (filled + Byte.SIZE - 1) / Byte.SIZE;
    }
    Arrays.fill(target, position, position + PADDING_BYTES, (byte) 0);
    return position + PADDING_BYTES - at;
  }

  /**
   * Unpacks {@code count} values packed at {@code from} of {@code packed} ({@code packedBytes} of
   * them) into {@code target} from 0, as little-endian longs.
   *
   * @throws IllegalArgumentException when the packed bytes are too few for the values
   */
  static void unpack(byte[] packed, int from, int packedBytes, int count, byte[] target) {
    if (packedBytes < HEADER_BYTES + PADDING_BYTES) {
      throw new IllegalArgumentException(
          "packed values of " + packedBytes + " bytes lack a header");
    }
    long smallest = RunFormat.getLong(packed, from);
    long divisor = RunFormat.getLong(packed, from + Long.BYTES);
    int width = packed[from + 2 * Long.BYTES];
    if (width < 0 || width > MAX_WIDTH || divisor < 1) {
      throw new IllegalArgumentException(
          "packed values have width " + width + ", divisor " + divisor);
    }
    long bits = (long) width * count;
    if (HEADER_BYTES + (bits + Byte.SIZE - 1) / Byte.SIZE + PADDING_BYTES != packedBytes) {
      throw new IllegalArgumentException(
          count + " values of " + width + " bits do not take " + packedBytes + " bytes");
    }
    int start = from + HEADER_BYTES;
    long mask = width == 0 ? 0 : -1L >>> (Long.SIZE - width);
    long bit = 0;
    for (int index = 0; index < count; index++) {
      long word = RunFormat.getLong(packed, start + (int) (bit >>> 3)) >>> (bit & 7);
      RunFormat.putLong(target, index * Long.BYTES, smallest + (word & mask) * divisor);
      bit += width;
    }
  }

  /** The greatest common divisor of every value's distance from {@code smallest}. */
  private static long commonDivisor(byte[] source, int count, long smallest) {
    long divisor = 0;
    for (int index = 0; index < count; index++) {
      long distance = RunFormat.getLong(source, index * Long.BYTES) - smallest;
      if (divisor == 0) {
        divisor = distance;
      } else if (distance % divisor != 0) {
        divisor = greatestCommonDivisor(divisor, distance);
        if (divisor == 1) {
          return 1;
        }
      }
    }
    return divisor == 0 ? 1 : divisor;
  }

  private static long greatestCommonDivisor(long first, long second) {
    long a = first;
    long b = second;
    while (b != 0) {
      long rest = a % b;
      a = b;
      b = rest;
    }
    return a;
  }
}
