package dev.lakeops.memory;

import org.apache.arrow.memory.util.MemoryUtil;

/** Reads the bytes of a value in memory as words, for hashes that take a word at a time. */
public final class ValueWords {
  private ValueWords() {}

  /**
   * The last bytes of the {@code length}-byte value at {@code address} that do not fill a whole
   * word, as one word: from 8 bytes on, the value's last 8 bytes (overlapping bytes a hash of its
   * whole words has taken already); below 8, its bytes, the first lowest. A hash then takes the
   * tail with one step instead of one per byte.
   */
  public static long tail(long address, int length) {
    if (length >= Long.BYTES) {
      return MemoryUtil.getLong(address + length - Long.BYTES);
    }
    long tail = 0;
    for (int index = 0, shift = 0; index < length; index++, shift += Byte.SIZE) {
      tail |= (MemoryUtil.getByte(address + index) & 0xffL) << shift;
    }
    return tail;
  }
}
