package dev.lakeops.rewrite.arrow;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.parquet.io.api.Binary;

/**
 * Hands a variable-width value to a Parquet column writer through one reused byte array, as
 * Spark's Parquet writer does, instead of a new array per value. parquet-java copies a reused
 * binary wherever it keeps one (new dictionary entries, min/max statistics); plain pages copy the
 * bytes anyway. One instance per column writer: not thread-safe.
 */
final class ReusedValueBytes {
  private byte[] buffer = new byte[256];

  /** The {@code length} bytes at memory address {@code address}, valid until the next call. */
  Binary copyOf(long address, int length) {
    if (length > buffer.length) {
      buffer = new byte[Math.max(length, 2 * buffer.length)];
    }
    MemoryUtil.copyFromMemory(address, buffer, 0, length);
    return Binary.fromReusedByteArray(buffer, 0, length);
  }
}
