package dev.lakeops.rewrite.sort;

import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One source batch's columns as a gather reads them: each vector, and for fixed- and
 * variable-width vectors the memory addresses of their validity, data and offset buffers, read
 * once per batch instead of once per copied value. Valid only while the batch's buffers stay as
 * they are: {@link RowGather} makes them afresh for each copy.
 */
final class SourceColumns {
  private final FieldVector[] vectors;
  private final long[] validity;
  private final long[] data;
  private final long[] offsets;

  private SourceColumns(FieldVector[] vectors, long[] validity, long[] data, long[] offsets) {
    this.vectors = vectors;
    this.validity = validity;
    this.data = data;
    this.offsets = offsets;
  }

  static SourceColumns of(VectorSchemaRoot batch) {
    List<FieldVector> fields = batch.getFieldVectors();
    int columns = fields.size();
    FieldVector[] vectors = fields.toArray(FieldVector[]::new);
    long[] validity = new long[columns];
    long[] data = new long[columns];
    long[] offsets = new long[columns];
    for (int column = 0; column < columns; column++) {
      FieldVector vector = vectors[column];
      boolean flat =
          vector instanceof BaseVariableWidthVector
              || (vector instanceof BaseFixedWidthVector && !(vector instanceof BitVector));
      if (flat) {
        validity[column] = vector.getValidityBuffer().memoryAddress();
        data[column] = vector.getDataBuffer().memoryAddress();
      }
      if (vector instanceof BaseVariableWidthVector) {
        offsets[column] = vector.getOffsetBuffer().memoryAddress();
      }
    }
    return new SourceColumns(vectors, validity, data, offsets);
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

  long offsetAddress(int column) {
    return offsets[column];
  }
}
