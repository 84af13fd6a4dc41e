package dev.lakeops.verify;

import java.util.Optional;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.data.Record;

/**
 * The test hook that makes the rewrite paths' writers wrong, to prove that verification catches
 * them. Nothing installs a fault outside tests; unset, each hook point costs one volatile read per
 * batch. A test installs a fault and resets it after itself ({@link #reset()}).
 */
public final class WriterFaults {
  private static volatile WriterFault installed;

  private WriterFaults() {}

  /**
   * Makes every rewrite's writer wrong in {@code fault}'s way until {@link #reset()}. For tests.
   */
  public static void install(WriterFault fault) {
    installed = fault;
  }

  public static void reset() {
    installed = null;
  }

  public static Optional<WriterFault> installed() {
    return Optional.ofNullable(installed);
  }

  /** Whether any fault is installed. */
  public static boolean active() {
    return installed != null;
  }

  /** Whether a dropped-row fault is installed (the decode-free merge loses a row per merge). */
  public static boolean dropsRow() {
    return installed == WriterFault.DROPPED_ROW;
  }

  /** Applies the installed fault, if any, to the first {@code columns} columns of {@code batch}. */
  public static void apply(VectorSchemaRoot batch, int columns) {
    WriterFault fault = installed;
    if (fault == null || batch.getRowCount() == 0) {
      return;
    }
    switch (fault) {
      case DROPPED_ROW -> dropLastRow(batch);
      case CHANGED_VALUE -> changeValue(batch, columns);
      case LOST_NULL -> loseNull(batch, columns);
    }
  }

  /**
   * {@code row} as the installed fault would write it: the group's first row ({@code rowIndex} 0)
   * dropped, or the first long value changed; empty when it drops the row.
   */
  public static Optional<Record> apply(Record row, long rowIndex) {
    WriterFault fault = installed;
    if (fault == null) {
      return Optional.of(row);
    }
    Record written = row.copy();
    switch (fault) {
      case DROPPED_ROW -> {
        return rowIndex == 0 ? Optional.empty() : Optional.of(row);
      }
      case CHANGED_VALUE -> {
        for (int index = 0; index < written.size(); index++) {
          if (written.get(index) instanceof Long value) {
            written.set(index, value + 1);
            break;
          }
        }
      }
      case LOST_NULL -> {
        // records carry no types here to make up a value with: the record path keeps its nulls
        return Optional.of(row);
      }
    }
    return Optional.of(written);
  }

  private static void dropLastRow(VectorSchemaRoot batch) {
    int rows = batch.getRowCount() - 1;
    for (FieldVector vector : batch.getFieldVectors()) {
      if (vector.getValueCount() > rows) {
        vector.setValueCount(rows);
      }
    }
    batch.setRowCount(rows);
  }

  private static void changeValue(VectorSchemaRoot batch, int columns) {
    for (int column = 0; column < columns; column++) {
      FieldVector vector = batch.getVector(column);
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (vector.isNull(row)) {
          continue;
        }
        if (vector instanceof BitVector bits) {
          bits.set(row, 1 - bits.get(row));
          return;
        }
        if (vector instanceof BaseFixedWidthVector fixed) {
          long offset = (long) row * fixed.getTypeWidth();
          fixed.getDataBuffer().setByte(offset, fixed.getDataBuffer().getByte(offset) ^ 1);
          return;
        }
        break;
      }
    }
  }

  private static void loseNull(VectorSchemaRoot batch, int columns) {
    for (int column = 0; column < columns; column++) {
      FieldVector vector = batch.getVector(column);
      if (!(vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector)) {
        continue;
      }
      for (int row = 0; row < batch.getRowCount(); row++) {
        if (vector.isNull(row)) {
          BitVectorHelper.setBit(vector.getValidityBuffer(), row);
          return;
        }
      }
    }
  }
}
