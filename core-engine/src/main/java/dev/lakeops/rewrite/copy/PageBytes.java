package dev.lakeops.rewrite.copy;

import java.util.Arrays;

/**
 * A growable byte array that a merge reuses page after page: values, levels and page bodies are
 * appended to it and read back from {@link #array()} without copying. Not thread-safe; unlike
 * {@link java.io.ByteArrayOutputStream} its writes take no lock.
 */
final class PageBytes {
  private byte[] bytes;
  private int size;

  PageBytes(int initialCapacity) {
    this.bytes = new byte[Math.max(16, initialCapacity)];
  }

  /** The bytes written since the last {@link #reset}: {@code array()[0, size())}. */
  byte[] array() {
    return bytes;
  }

  int size() {
    return size;
  }

  void reset() {
    size = 0;
  }

  void write(int value) {
    ensureCapacity(size + 1);
    bytes[size++] = (byte) value;
  }

  void write(byte[] source, int offset, int length) {
    ensureCapacity(size + length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  void writeIntLittleEndian(int value) {
    ensureCapacity(size + 4);
    bytes[size] = (byte) value;
    bytes[size + 1] = (byte) (value >>> 8);
    bytes[size + 2] = (byte) (value >>> 16);
    bytes[size + 3] = (byte) (value >>> 24);
    size += 4;
  }

  void writeLongLittleEndian(long value) {
    ensureCapacity(size + 8);
    for (int index = 0; index < 8; index++) {
      bytes[size + index] = (byte) (value >>> (8 * index));
    }
    size += 8;
  }

  /** Makes room for {@code capacity} bytes in all, keeping those written. */
  void ensureCapacity(int capacity) {
    if (capacity > bytes.length) {
      if (capacity < 0 || capacity > Integer.MAX_VALUE - 64) {
        throw new IllegalStateException("A page of " + capacity + " bytes is too large");
      }
      bytes =
          Arrays.copyOf(
              bytes, (int) Math.min(Integer.MAX_VALUE - 64, Math.max(capacity, 2L * bytes.length)));
    }
  }

  /** Reserves {@code length} bytes at the end, to be filled in place; returns their offset. */
  int append(int length) {
    ensureCapacity(size + length);
    int offset = size;
    size += length;
    return offset;
  }
}
