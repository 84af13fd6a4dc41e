package dev.lakeops.rewrite.sort;

import java.util.Arrays;

/**
 * A reusable, growable byte array a sort key is built in. Keys compare as unsigned bytes, so every
 * value is written big-endian with its sign bit flipped.
 */
final class KeyBytes {
  private byte[] bytes = new byte[64];
  private int length;

  void reset() {
    length = 0;
  }

  int length() {
    return length;
  }

  byte[] array() {
    return bytes;
  }

  byte[] copy() {
    return Arrays.copyOf(bytes, length);
  }

  void put(int value) {
    ensure(1);
    bytes[length++] = (byte) value;
  }

  void putInt(int value) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      bytes[length++] = (byte) (value >>> shift);
    }
  }

  void putLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      bytes[length++] = (byte) (value >>> shift);
    }
  }

  void put(byte[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, bytes, length, count);
    length += count;
  }

  /** Flips every bit from {@code from} to the end, turning an ascending encoding into descending. */
  void invertFrom(int from) {
    for (int index = from; index < length; index++) {
      bytes[index] = (byte) ~bytes[index];
    }
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }
}
