package dev.lakeops.rewrite.sort;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;

/**
 * Copies picked rows of one column from several source vectors into consecutive rows of a target
 * vector. Fixed-width and variable-width vectors are copied by memory address, once the target's
 * buffers have been grown to hold every row and byte of the copy, so there is no per-value
 * capacity check, bounds check or hole filling; other vectors (booleans, nested types) fall back to
 * Arrow's {@code copyFromSafe}.
 */
final class ColumnGather {
  private static final int OFFSET_WIDTH = BaseVariableWidthVector.OFFSET_WIDTH;

  private ColumnGather() {}

  /**
   * Copies row {@code rows[i]} of column {@code column} of {@code sources[i]} into row {@code
   * firstTargetRow + i} of {@code target}, for each {@code i < count}. Rows before {@code firstTargetRow} must have been written
   * already; the caller sets the target's value count afterwards.
   */
  static void copy(
      FieldVector target, int column, int firstTargetRow, SourceColumns[] sources, int[] rows, int count) {
    if (target instanceof BaseVariableWidthVector variable) {
      copyVariableWidth(variable, column, firstTargetRow, sources, rows, count);
    } else if (target instanceof BaseFixedWidthVector fixed && !(target instanceof BitVector)) {
      copyFixedWidth(fixed, column, firstTargetRow, sources, rows, count);
    } else {
      for (int index = 0; index < count; index++) {
        target.copyFromSafe(rows[index], firstTargetRow + index, sources[index].vector(column));
      }
    }
  }

  private static void copyFixedWidth(
      BaseFixedWidthVector target, int column, int firstTargetRow, SourceColumns[] sources, int[] rows, int count) {
    while (target.getValueCapacity() < firstTargetRow + count) {
      target.reAlloc();
    }
    int width = target.getTypeWidth();
    long validity = target.getValidityBuffer().memoryAddress();
    long data = target.getDataBuffer().memoryAddress();
    for (int index = 0; index < count; index++) {
      SourceColumns source = sources[index];
      int row = rows[index];
      int targetRow = firstTargetRow + index;
      copyValidity(source, column, row, validity, targetRow);
      long from = source.dataAddress(column) + (long) row * width;
      long to = data + (long) targetRow * width;
      switch (width) {
        case 8 -> MemoryUtil.putLong(to, MemoryUtil.getLong(from));
        case 4 -> MemoryUtil.putInt(to, MemoryUtil.getInt(from));
        default -> MemoryUtil.copyMemory(from, to, width);
      }
    }
  }

  private static void copyVariableWidth(
      BaseVariableWidthVector target, int column, int firstTargetRow, SourceColumns[] sources, int[] rows, int count) {
    while (target.getValueCapacity() < firstTargetRow + count) {
      target.reallocValidityAndOffsetBuffers();
    }
    int start = firstTargetRow == 0 ? 0 : MemoryUtil.getInt(offsetAddress(target, firstTargetRow));
    long bytes = 0;
    for (int index = 0; index < count; index++) {
      SourceColumns source = sources[index];
      if (isValid(source.validityAddress(column), rows[index])) {
        long offsets = source.offsetAddress(column) + (long) rows[index] * OFFSET_WIDTH;
        bytes += MemoryUtil.getInt(offsets + OFFSET_WIDTH) - MemoryUtil.getInt(offsets);
      }
    }
    if (start + bytes > Integer.MAX_VALUE) {
      throw new IllegalStateException("A variable-width batch column would exceed 2 GiB: " + (start + bytes) + " bytes");
    }
    while (target.getDataBuffer().capacity() < start + bytes) {
      target.reallocDataBuffer();
    }
    long validity = target.getValidityBuffer().memoryAddress();
    long offsets = target.getOffsetBuffer().memoryAddress();
    long data = target.getDataBuffer().memoryAddress();
    int position = start;
    MemoryUtil.putInt(offsets + (long) firstTargetRow * OFFSET_WIDTH, position);
    for (int index = 0; index < count; index++) {
      SourceColumns source = sources[index];
      int row = rows[index];
      int targetRow = firstTargetRow + index;
      if (copyValidity(source, column, row, validity, targetRow)) {
        long sourceOffsets = source.offsetAddress(column) + (long) row * OFFSET_WIDTH;
        int from = MemoryUtil.getInt(sourceOffsets);
        int length = MemoryUtil.getInt(sourceOffsets + OFFSET_WIDTH) - from;
        MemoryUtil.copyMemory(source.dataAddress(column) + from, data + position, length);
        position += length;
      }
      MemoryUtil.putInt(offsets + (long) (targetRow + 1) * OFFSET_WIDTH, position);
    }
    target.setLastSet(firstTargetRow + count - 1);
  }

  private static long offsetAddress(BaseVariableWidthVector vector, int row) {
    return vector.getOffsetBuffer().memoryAddress() + (long) row * OFFSET_WIDTH;
  }

  /** Copies one row's validity bit; returns whether the row holds a value. */
  private static boolean copyValidity(SourceColumns source, int column, int row, long targetValidity, int targetRow) {
    boolean valid = isValid(source.validityAddress(column), row);
    setValidity(targetValidity, targetRow, valid);
    return valid;
  }

  private static boolean isValid(long validity, int row) {
    return ((MemoryUtil.getByte(validity + (row >> 3)) >> (row & 7)) & 1) != 0;
  }

  private static void setValidity(long validity, int row, boolean valid) {
    long address = validity + (row >> 3);
    byte current = MemoryUtil.getByte(address);
    int bit = 1 << (row & 7);
    MemoryUtil.putByte(address, (byte) (valid ? current | bit : current & ~bit));
  }
}
