package dev.lakeops.rewrite.sort;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * A reusable, growable byte array a sort key is built in. Keys compare as unsigned bytes, so every
 * value is written big-endian with its sign bit flipped.
 */
final class KeyBytes {
  private static final VarHandle BIG_ENDIAN_INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle BIG_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** The array is never shorter than this, so the leading words can always be read whole. */
  private static final int MIN_CAPACITY = 64;

  private byte[] bytes = new byte[MIN_CAPACITY];
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

  /** The eight bytes at {@code index} as a big-endian long, whether or not the key is that long. */
  long bigEndianLongAt(int index) {
    return (long) BIG_ENDIAN_LONGS.get(bytes, index);
  }

  byte[] copy() {
    return Arrays.copyOf(bytes, length);
  }

  void put(int value) {
    ensure(1);
    bytes[length++] = (byte) value;
  }

  void putInt(int value) {
    ensure(Integer.BYTES);
    BIG_ENDIAN_INTS.set(bytes, length, value);
    length += Integer.BYTES;
  }

  void putLong(long value) {
    ensure(Long.BYTES);
    BIG_ENDIAN_LONGS.set(bytes, length, value);
    length += Long.BYTES;
  }

  void put(byte[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, bytes, length, count);
    length += count;
  }

  /**
   * Appends {@code value} escaped: a zero byte becomes 0x00 0xFF, and 0x00 0x00 ends the value, so
   * a shorter value sorts before any longer one it starts.
   */
  void putEscaped(byte[] value) {
    ensure(2 * value.length + 2);
    for (byte next : value) {
      putEscapedByte(next);
    }
    endEscaped();
  }

  /**
   * Appends the {@code count} bytes at memory address {@code address} escaped, as {@link
   * #putEscaped(byte[])}.
   */
  void putEscaped(long address, int count) {
    ensure(2 * count + 2);
    for (int index = 0; index < count; index++) {
      putEscapedByte(MemoryUtil.getByte(address + index));
    }
    endEscaped();
  }

  /** One byte of an escaped value, room already ensured. */
  private void putEscapedByte(byte value) {
    bytes[length++] = value;
    if (value == 0) {
      bytes[length++] = (byte) 0xFF;
    }
  }

  private void endEscaped() {
    bytes[length++] = 0;
    bytes[length++] = 0;
  }

  /**
   * Flips every bit from {@code from} to the end, turning an ascending encoding into descending.
   */
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
