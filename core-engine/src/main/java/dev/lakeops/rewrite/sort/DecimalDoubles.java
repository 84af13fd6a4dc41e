package dev.lakeops.rewrite.sort;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Doubles that are decimals of a few places (prices, amounts, measurements rounded to a unit), as
 * the integers they become when multiplied by a power of ten: {@code 12.34} as {@code 1234} over
 * {@code 10^2}. Such integers pack into a few bytes ({@link PackedLongs}) where a double's mantissa
 * bits look random to a compressor. A value is scaled only when dividing its integer by the same
 * power of ten gives back exactly its bits, so every double, {@code -0.0}, NaN and infinities
 * included, comes back as it was or the batch is not scaled at all.
 */
final class DecimalDoubles {
  /** The most decimal places tried. */
  static final int MAX_EXPONENT = 9;

  private static final double[] POWERS_OF_TEN = new double[MAX_EXPONENT + 1];

  static {
    double power = 1;
    for (int exponent = 0; exponent <= MAX_EXPONENT; exponent++) {
      POWERS_OF_TEN[exponent] = power;
      power *= 10;
    }
  }

  private DecimalDoubles() {}

  /**
   * Writes the {@code count} doubles at {@code address} to {@code target} as little-endian longs
   * scaled by the fewest decimal places that give every non-null one back exactly (a null row, its
   * bit clear in {@code validity} unless that is 0, as the integer before it); returns the number
   * of places, or -1 when no number up to {@value #MAX_EXPONENT} does (target then holds nothing
   * useful).
   */
  static int scale(long address, long validity, int count, byte[] target) {
    int exponent = 0;
    int row = 0;
    while (row < count && isNull(validity, row)) {
      row++;
    }
    if (row == count) {
      return 0;
    }
    double first = Double.longBitsToDouble(MemoryUtil.getLong(address + (long) row * Double.BYTES));
    while (exponent <= MAX_EXPONENT && !exact(first, exponent)) {
      exponent++;
    }
    while (exponent <= MAX_EXPONENT) {
      if (scaleAll(address, validity, count, exponent, target)) {
        return exponent;
      }
      exponent++;
    }
    return -1;
  }

  /** Writes the doubles of {@code scaled} (longs from {@link #scale}) to {@code address}. */
  static void unscale(byte[] scaled, int count, int exponent, long address) {
    double power = POWERS_OF_TEN[exponent];
    for (int index = 0; index < count; index++) {
      double value = RunFormat.getLong(scaled, index * Long.BYTES) / power;
      MemoryUtil.putLong(address + (long) index * Double.BYTES, Double.doubleToRawLongBits(value));
    }
  }

  /** Whether {@code exponent} is one {@link #unscale} can take. */
  static boolean isExponent(int exponent) {
    return exponent >= 0 && exponent <= MAX_EXPONENT;
  }

  private static boolean scaleAll(
      long address, long validity, int count, int exponent, byte[] target) {
    double power = POWERS_OF_TEN[exponent];
    long previous = 0;
    for (int index = 0; index < count; index++) {
      if (!isNull(validity, index)) {
        double value =
            Double.longBitsToDouble(MemoryUtil.getLong(address + (long) index * Double.BYTES));
        long scaled = Math.round(value * power);
        if (!unscalesTo(scaled, power, value)) {
          return false;
        }
        previous = scaled;
      }
      RunFormat.putLong(target, index * Long.BYTES, previous);
    }
    return true;
  }

  private static boolean exact(double value, int exponent) {
    double power = POWERS_OF_TEN[exponent];
    return unscalesTo(Math.round(value * power), power, value);
  }

  /** Whether {@link #unscale} gives back exactly {@code value}'s bits from {@code scaled}. */
  private static boolean unscalesTo(long scaled, double power, double value) {
    return Double.doubleToRawLongBits(scaled / power) == Double.doubleToRawLongBits(value);
  }

  private static boolean isNull(long validity, int row) {
    return validity != 0 && (MemoryUtil.getByte(validity + (row >>> 3)) & (1 << (row & 7))) == 0;
  }
}
