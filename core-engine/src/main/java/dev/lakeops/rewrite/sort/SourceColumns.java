package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One source batch's columns as a gather reads them: the batch, each vector, for fixed- and
 * variable-width vectors the memory addresses of their validity, data and offset buffers, and which
 * columns hold a null, all read once per batch instead of once per copied value. Made by the
 * batch's owner once the batch is filled, and valid only while its buffers stay as they are.
 */
final class SourceColumns {
  private final VectorSchemaRoot batch;
  private final FieldVector[] vectors;
  private final long[] validity;
  private final long[] data;
  private final long[] dataEnd;
  private final long[] offsets;
  private final long[] columnsWithNulls;
  private final long firstColumnsWithNulls;

  private SourceColumns(
      VectorSchemaRoot batch,
      FieldVector[] vectors,
      long[] validity,
      long[] data,
      long[] dataEnd,
      long[] offsets,
      long[] columnsWithNulls) {
    this.batch = batch;
    this.vectors = vectors;
    this.validity = validity;
    this.data = data;
    this.dataEnd = dataEnd;
    this.offsets = offsets;
    this.columnsWithNulls = columnsWithNulls;
    this.firstColumnsWithNulls = columnsWithNulls.length == 0 ? 0 : columnsWithNulls[0];
  }

  static SourceColumns of(VectorSchemaRoot batch) {
    requireNonNull(batch, "batch is null");
    List<FieldVector> fields = batch.getFieldVectors();
    int columns = fields.size();
    FieldVector[] vectors = fields.toArray(FieldVector[]::new);
    long[] validity = new long[columns];
    long[] data = new long[columns];
    long[] dataEnd = new long[columns];
    long[] offsets = new long[columns];
    long[] columnsWithNulls = new long[ColumnSet.words(columns)];
    for (int column = 0; column < columns; column++) {
      FieldVector vector = vectors[column];
      boolean flat =
          vector instanceof BaseVariableWidthVector
              || (vector instanceof BaseFixedWidthVector && !(vector instanceof BitVector));
      if (flat) {
        validity[column] = vector.getValidityBuffer().memoryAddress();
        data[column] = vector.getDataBuffer().memoryAddress();
        dataEnd[column] = data[column] + vector.getDataBuffer().capacity();
      }
      if (vector instanceof BaseVariableWidthVector) {
        offsets[column] = vector.getOffsetBuffer().memoryAddress();
      }
      if (batch.getRowCount() > 0 && vector.getNullCount() > 0) {
        ColumnSet.add(columnsWithNulls, column);
      }
    }
    return new SourceColumns(batch, vectors, validity, data, dataEnd, offsets, columnsWithNulls);
  }

  VectorSchemaRoot batch() {
    return batch;
  }

  FieldVector vector(int column) {
    return vectors[column];
  }

  long validityAddress(int column) {
    return validity[column];
  }

  long dataAddress(int column) {
    return data[column];
  }

  /** The address just past the column's data buffer. */
  long dataEndAddress(int column) {
    return dataEnd[column];
  }

  long offsetAddress(int column) {
    return offsets[column];
  }

  /** The first word of {@link #columnsWithNulls()} (columns 0 to 63), without the array's load. */
  long firstColumnsWithNulls() {
    return firstColumnsWithNulls;
  }

  /** The columns that hold at least one null in this batch, as a {@link ColumnSet}. */
  long[] columnsWithNulls() {
    return columnsWithNulls;
  }
}
