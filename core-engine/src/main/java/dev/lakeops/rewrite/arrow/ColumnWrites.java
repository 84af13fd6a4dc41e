package dev.lakeops.rewrite.arrow;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Hands whole Arrow columns to Parquet column writers ({@link ColumnTransfers} picks one per type).
 * Fixed-width numbers and variable-width values are read by memory address, buffer addresses read
 * once per column, with no per-value bounds check or virtual call; other columns go value by value
 * through the vector's API ({@link #rowByRow}).
 */
final class ColumnWrites {
  private ColumnWrites() {}

  /** A column write that hands {@code writer} one value at a time, read through the vector's API. */
  static ColumnTransfers.ColumnWrite rowByRow(ColumnTransfers.ValueWriter values) {
    return (vector, rowCount, writer, maxDefinition) -> {
      for (int row = 0; row < rowCount; row++) {
        if (vector.isNull(row)) {
          writer.writeNull(0, 0);
        } else {
          values.write(vector, row, writer, maxDefinition);
        }
      }
    };
  }

  static void writeLongs(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    for (int row = 0; row < rowCount; row++) {
      if (isValid(validity, row)) {
        writer.write(MemoryUtil.getLong(data + (long) row * Long.BYTES), 0, maxDefinition);
      } else {
        writer.writeNull(0, 0);
      }
    }
  }

  static void writeInts(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    for (int row = 0; row < rowCount; row++) {
      if (isValid(validity, row)) {
        writer.write(MemoryUtil.getInt(data + (long) row * Integer.BYTES), 0, maxDefinition);
      } else {
        writer.writeNull(0, 0);
      }
    }
  }

  static void writeDoubles(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    for (int row = 0; row < rowCount; row++) {
      if (isValid(validity, row)) {
        writer.write(Double.longBitsToDouble(MemoryUtil.getLong(data + (long) row * Double.BYTES)), 0, maxDefinition);
      } else {
        writer.writeNull(0, 0);
      }
    }
  }

  static void writeFloats(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    for (int row = 0; row < rowCount; row++) {
      if (isValid(validity, row)) {
        writer.write(Float.intBitsToFloat(MemoryUtil.getInt(data + (long) row * Float.BYTES)), 0, maxDefinition);
      } else {
        writer.writeNull(0, 0);
      }
    }
  }

  static void writeBinaries(
      BaseVariableWidthVector vector, int rowCount, ColumnWriter writer, int maxDefinition, ReusedValueBytes bytes) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long offsets = vector.getOffsetBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    for (int row = 0; row < rowCount; row++) {
      if (isValid(validity, row)) {
        long offset = offsets + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
        int start = MemoryUtil.getInt(offset);
        int length = MemoryUtil.getInt(offset + BaseVariableWidthVector.OFFSET_WIDTH) - start;
        Binary value = bytes.copyOf(data + start, length);
        writer.write(value, 0, maxDefinition);
      } else {
        writer.writeNull(0, 0);
      }
    }
  }

  private static boolean isValid(long validity, int row) {
    return ((MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1) != 0;
  }
}
