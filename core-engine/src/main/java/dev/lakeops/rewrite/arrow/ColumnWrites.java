package dev.lakeops.rewrite.arrow;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Hands a whole Arrow column to a Parquet column writer. Columns of ints, longs, floats, doubles,
 * dates, times, timestamps, strings and binaries are read by memory address (buffer addresses read
 * once per column, no per-value bounds check or virtual call); every other column goes value by
 * value through its {@link ColumnTransfer}.
 */
final class ColumnWrites {
  private ColumnWrites() {}

  /**
   * Writes rows {@code [0, rowCount)} of {@code vector} to {@code writer}.
   *
   * @param bytes the column's reused value bytes, for strings and binaries
   */
  static void write(
      FieldVector vector,
      int rowCount,
      ColumnTransfer transfer,
      ColumnWriter writer,
      int maxDefinition,
      ReusedValueBytes bytes) {
    if (vector instanceof BigIntVector || vector instanceof TimeMicroVector || vector instanceof TimeStampVector) {
      writeLongs((BaseFixedWidthVector) vector, rowCount, writer, maxDefinition);
    } else if (vector instanceof IntVector || vector instanceof DateDayVector) {
      writeInts((BaseFixedWidthVector) vector, rowCount, writer, maxDefinition);
    } else if (vector instanceof Float8Vector doubles) {
      writeDoubles(doubles, rowCount, writer, maxDefinition);
    } else if (vector instanceof Float4Vector floats) {
      writeFloats(floats, rowCount, writer, maxDefinition);
    } else if (vector instanceof VarCharVector || vector instanceof VarBinaryVector) {
      writeBinaries((BaseVariableWidthVector) vector, rowCount, writer, maxDefinition, bytes);
    } else {
      for (int row = 0; row < rowCount; row++) {
        if (vector.isNull(row)) {
          writer.writeNull(0, 0);
        } else {
          transfer.write(vector, row, writer, maxDefinition);
        }
      }
    }
  }

  private static void writeLongs(BaseFixedWidthVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
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

  private static void writeInts(BaseFixedWidthVector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
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

  private static void writeDoubles(Float8Vector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
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

  private static void writeFloats(Float4Vector vector, int rowCount, ColumnWriter writer, int maxDefinition) {
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

  private static void writeBinaries(
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
