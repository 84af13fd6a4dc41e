package dev.lakeops.verify;

import dev.lakeops.memory.ValueWords;
import java.util.Arrays;
import java.util.Objects;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The order-independent checksum of the rows of Arrow batches, computed column by column: each
 * column's value hashes are folded into one running hash per row (so a row's hash depends on its
 * columns in order), and the rows' mixed hashes are added up modulo 2<sup>64</sup> (so the sum does
 * not depend on the order of the rows, nor on how they are cut into batches). Fixed-width values
 * are hashed from their bytes in the data buffer, variable-width values from their bytes and
 * length, nulls as a constant of their own. Fixed- and variable-width columns are read by memory
 * address, their buffers' addresses looked up once per column, validity bits only in columns that
 * hold a null. Reuses one scratch array: one instance per thread.
 */
public final class BatchChecksum {
  private static final long NULL_HASH = 0x6a09e667f3bcc909L;
  private static final long ROW_MULTIPLIER = 0x9e3779b97f4a7c15L;
  private static final long BYTES_MULTIPLIER = 0xc2b2ae3d27d4eb4fL;
  private static final long SECOND_LANE_SEED = 0xbb67ae8584caa73bL;

  private long[] rowHashes = new long[0];

  /** The checksum of the first {@code columns} columns of {@code batch}'s rows. */
  public long of(VectorSchemaRoot batch, int columns) {
    int rows = batch.getRowCount();
    if (rowHashes.length < rows) {
      rowHashes = new long[rows];
    }
    Arrays.fill(rowHashes, 0, rows, 0L);
    for (int column = 0; column < columns; column++) {
      foldColumn(batch.getVector(column), rows);
    }
    long sum = 0;
    for (int row = 0; row < rows; row++) {
      sum += mix(rowHashes[row]);
    }
    return sum;
  }

  private void foldColumn(FieldVector vector, int rows) {
    if (vector instanceof BitVector bits) {
      for (int row = 0; row < rows; row++) {
        fold(row, bits.isNull(row) ? NULL_HASH : mix(bits.get(row) + 1L));
      }
    } else if (vector instanceof BaseFixedWidthVector fixed) {
      foldFixedWidth(fixed, rows);
    } else if (vector instanceof BaseVariableWidthVector variable) {
      foldVariableWidth(variable, rows);
    } else {
      for (int row = 0; row < rows; row++) {
        fold(
            row,
            vector.isNull(row) ? NULL_HASH : mix(Objects.hashCode(vector.getObject(row)) + 3L));
      }
    }
  }

  private void foldFixedWidth(BaseFixedWidthVector vector, int rows) {
    int width = vector.getTypeWidth();
    long data = vector.getDataBuffer().memoryAddress();
    long validity = validityIfNulls(vector, rows);
    for (int row = 0; row < rows; row++) {
      if (validity != 0 && isNull(validity, row)) {
        fold(row, NULL_HASH);
        continue;
      }
      long address = data + (long) row * width;
      long value =
          switch (width) {
            case 8 -> MemoryUtil.getLong(address);
            case 4 -> MemoryUtil.getInt(address);
            case 2 -> MemoryUtil.getShort(address);
            case 1 -> MemoryUtil.getByte(address);
            default -> bytesHash(address, width);
          };
      fold(row, mix(value));
    }
  }

  private void foldVariableWidth(BaseVariableWidthVector vector, int rows) {
    long offsets = vector.getOffsetBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    long validity = validityIfNulls(vector, rows);
    for (int row = 0; row < rows; row++) {
      if (validity != 0 && isNull(validity, row)) {
        fold(row, NULL_HASH);
        continue;
      }
      long offset = offsets + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
      int start = MemoryUtil.getInt(offset);
      int end = MemoryUtil.getInt(offset + BaseVariableWidthVector.OFFSET_WIDTH);
      fold(row, mix(bytesHash(data + start, end - start)));
    }
  }

  /** The address of the vector's validity bits if one of its first rows is null, else 0. */
  private static long validityIfNulls(FieldVector vector, int rows) {
    return BitVectorHelper.getNullCount(vector.getValidityBuffer(), rows) == 0
        ? 0
        : vector.getValidityBuffer().memoryAddress();
  }

  private static boolean isNull(long validity, int row) {
    return (MemoryUtil.getByte(validity + (row >>> 3)) & (1 << (row & 7))) == 0;
  }

  private void fold(int row, long valueHash) {
    rowHashes[row] = rowHashes[row] * ROW_MULTIPLIER + valueHash;
  }

  /**
   * Hashes a value's bytes in two independent lanes, 16 bytes a step, so the two multiply chains
   * run side by side: the value's last 1 to 15 bytes go to one lane or both (the last whole word
   * overlapping bytes already taken where the length is not a multiple of 8).
   */
  private static long bytesHash(long address, int length) {
    long first = length;
    long second = SECOND_LANE_SEED;
    int index = 0;
    for (; index + 2 * Long.BYTES <= length; index += 2 * Long.BYTES) {
      first = (first ^ MemoryUtil.getLong(address + index)) * BYTES_MULTIPLIER;
      second = (second ^ MemoryUtil.getLong(address + index + Long.BYTES)) * BYTES_MULTIPLIER;
    }
    int remaining = length - index;
    if (remaining >= Long.BYTES) {
      first = (first ^ MemoryUtil.getLong(address + index)) * BYTES_MULTIPLIER;
      if (remaining > Long.BYTES) {
        second = (second ^ MemoryUtil.getLong(address + length - Long.BYTES)) * BYTES_MULTIPLIER;
      }
    } else if (remaining > 0) {
      second = (second ^ ValueWords.tail(address + index, remaining)) * BYTES_MULTIPLIER;
    }
    return first * ROW_MULTIPLIER + second;
  }

  /** Murmur3's 64-bit finalizer. */
  static long mix(long value) {
    long mixed = value;
    mixed ^= mixed >>> 33;
    mixed *= 0xff51afd7ed558ccdL;
    mixed ^= mixed >>> 33;
    mixed *= 0xc4ceb93fe66cd53bL;
    mixed ^= mixed >>> 33;
    return mixed;
  }
}
