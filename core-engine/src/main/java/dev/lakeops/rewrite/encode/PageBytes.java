package dev.lakeops.rewrite.encode;

import dev.lakeops.rewrite.codec.ShortValueCopy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.parquet.bytes.BytesInput;

/**
 * A growable heap buffer of little-endian bytes: one page's values, or a dictionary's. Reused page
 * after page; {@link #asBytesInput()} is valid until the next write or {@link #reset()}.
 */
final class PageBytes {
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle NATIVE_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final int SHORT_VALUE_BYTES = 64;
  private static final int WORD_COPY_BYTES = ShortValueCopy.WORD_COPY_BYTES;

  private byte[] bytes;
  private int size;

  PageBytes(int initialCapacity) {
    this.bytes = new byte[Math.max(16, initialCapacity)];
  }

  int size() {
    return size;
  }

  /** The backing array; bytes {@code [0, size())} are the content. */
  byte[] array() {
    return bytes;
  }

  void reset() {
    size = 0;
  }

  void putInt(int value) {
    ensureRoom(Integer.BYTES);
    INTS.set(bytes, size, value);
    size += Integer.BYTES;
  }

  void putLong(long value) {
    ensureRoom(Long.BYTES);
    LONGS.set(bytes, size, value);
    size += Long.BYTES;
  }

  void put(byte[] source, int offset, int length) {
    ensureRoom(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  /**
   * Appends the {@code length} bytes at memory address {@code address}; short values eight bytes at
   * a time, without the checks of a bulk copy into a heap array.
   */
  void putFromMemory(long address, int length) {
    ensureRoom(length);
    if (length > SHORT_VALUE_BYTES) {
      MemoryUtil.copyFromMemory(address, bytes, size, length);
    } else {
      int index = 0;
      for (; index + Long.BYTES <= length; index += Long.BYTES) {
        NATIVE_LONGS.set(bytes, size + index, MemoryUtil.getLong(address + index));
      }
      for (; index < length; index++) {
        bytes[size + index] = MemoryUtil.getByte(address + index);
      }
    }
    size += length;
  }

  /**
   * Appends one PLAIN binary value: its length, then its {@code length} bytes at memory address
   * {@code address}, from which {@code readable} bytes may be read. Values of up to {@value
   * #WORD_COPY_BYTES} bytes, with that many bytes readable, are copied as four words, no loop.
   */
  void putLengthPrefixed(long address, int length, long readable) {
    ensureRoom(Integer.BYTES + Math.max(length, WORD_COPY_BYTES));
    INTS.set(bytes, size, length);
    size += Integer.BYTES;
    if (length <= WORD_COPY_BYTES && readable >= WORD_COPY_BYTES) {
      NATIVE_LONGS.set(bytes, size, MemoryUtil.getLong(address));
      NATIVE_LONGS.set(bytes, size + Long.BYTES, MemoryUtil.getLong(address + Long.BYTES));
      NATIVE_LONGS.set(bytes, size + 2 * Long.BYTES, MemoryUtil.getLong(address + 2 * Long.BYTES));
      NATIVE_LONGS.set(bytes, size + 3 * Long.BYTES, MemoryUtil.getLong(address + 3 * Long.BYTES));
      size += length;
    } else {
      putFromMemory(address, length);
    }
  }

  int intAt(int offset) {
    return (int) INTS.get(bytes, offset);
  }

  long longAt(int offset) {
    return (long) LONGS.get(bytes, offset);
  }

  BytesInput asBytesInput() {
    return BytesInput.from(bytes, 0, size);
  }

  private void ensureRoom(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(size + more, 2 * bytes.length));
    }
  }
}
