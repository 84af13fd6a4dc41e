package dev.lakeops.rewrite.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Copies one value's bytes from a heap array into off-heap memory. A bulk copy between the heap and
 * memory costs a call with bounds checks whatever its length, which dominates for the short strings
 * most columns hold; values of up to {@value #WORD_COPY_BYTES} bytes are therefore copied as four
 * words, no loop, whenever the array holds that many bytes from the value's start.
 */
public final class ShortValueCopy {
  /** Values up to this long are copied as four words; the target needs this much room. */
  public static final int WORD_COPY_BYTES = 4 * Long.BYTES;

  private static final VarHandle NATIVE_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  private ShortValueCopy() {}

  /**
   * Copies {@code source[start, start + length)} to {@code address}, where {@code room} bytes (at
   * least {@code length}) may be written: with room for four words, bytes past the value may be
   * overwritten.
   */
  public static void copyToMemory(byte[] source, int start, long address, int length, long room) {
    if (length <= WORD_COPY_BYTES
        && room >= WORD_COPY_BYTES
        && start + WORD_COPY_BYTES <= source.length) {
      MemoryUtil.putLong(address, (long) NATIVE_LONGS.get(source, start));
      MemoryUtil.putLong(address + Long.BYTES, (long) NATIVE_LONGS.get(source, start + Long.BYTES));
      MemoryUtil.putLong(
          address + 2 * Long.BYTES, (long) NATIVE_LONGS.get(source, start + 2 * Long.BYTES));
      MemoryUtil.putLong(
          address + 3 * Long.BYTES, (long) NATIVE_LONGS.get(source, start + 3 * Long.BYTES));
    } else if (length > 0) {
      MemoryUtil.copyToMemory(source, start, address, length);
    }
  }
}
