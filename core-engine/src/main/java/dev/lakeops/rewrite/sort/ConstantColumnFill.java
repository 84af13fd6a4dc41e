package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.rewrite.read.ColumnTransfer;
import dev.lakeops.rewrite.read.ColumnTransfers;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Puts a group's {@link ConstantColumns} back beside its sorted columns for the Parquet writer: a
 * batch of the full write schema, in its column order, that shares the sorted batch's vectors and
 * holds a vector of its own for each constant column, filled with the constant for as many rows as
 * the sorted batch has. Without constant columns the sorted batch is the write batch.
 */
final class ConstantColumnFill implements AutoCloseable {
  private final VectorSchemaRoot sortedBatch;
  private final VectorSchemaRoot writeBatch;
  private final List<FieldVector> constantVectors = new ArrayList<>();
  private final List<Object> constantValues = new ArrayList<>();
  private final List<ColumnTransfer> constantTransfers = new ArrayList<>();

  /**
   * @param sortedBatch a batch of {@code writeSchema}'s columns other than the constant ones, in
   *     the write schema's order
   */
  ConstantColumnFill(
      Schema writeSchema,
      ConstantColumns constants,
      VectorSchemaRoot sortedBatch,
      BufferAllocator allocator) {
    requireNonNull(writeSchema, "writeSchema is null");
    requireNonNull(constants, "constants is null");
    this.sortedBatch = requireNonNull(sortedBatch, "sortedBatch is null");
    requireNonNull(allocator, "allocator is null");
    if (constants.isEmpty()) {
      this.writeBatch = sortedBatch;
      return;
    }
    List<Field> fields = ArrowSchemas.toArrow(writeSchema).getFields();
    List<FieldVector> vectors = new ArrayList<>();
    int sortedColumn = 0;
    try {
      for (int column = 0; column < fields.size(); column++) {
        Types.NestedField icebergColumn = writeSchema.columns().get(column);
        if (constants.contains(icebergColumn.fieldId())) {
          FieldVector vector = fields.get(column).createVector(allocator);
          constantVectors.add(vector);
          constantValues.add(constants.genericValue(icebergColumn));
          constantTransfers.add(ColumnTransfers.forType(icebergColumn.type()));
          vectors.add(vector);
        } else {
          vectors.add(sortedBatch.getVector(sortedColumn++));
        }
      }
    } catch (RuntimeException e) {
      closeConstantVectors();
      throw e;
    }
    this.writeBatch = new VectorSchemaRoot(fields, vectors, 0);
  }

  /** The sorted batch's rows with every column of the write schema, constants filled in. */
  VectorSchemaRoot writeBatch() {
    if (writeBatch == sortedBatch) {
      return sortedBatch;
    }
    int rows = sortedBatch.getRowCount();
    for (int index = 0; index < constantVectors.size(); index++) {
      fill(
          constantVectors.get(index),
          constantTransfers.get(index),
          constantValues.get(index),
          rows);
    }
    writeBatch.setRowCount(rows);
    return writeBatch;
  }

  private static void fill(FieldVector vector, ColumnTransfer transfer, Object value, int rows) {
    vector.reset();
    for (int row = 0; row < rows; row++) {
      if (value == null) {
        vector.setNull(row);
      } else {
        transfer.set(vector, row, value);
      }
    }
    vector.setValueCount(rows);
  }

  @Override
  public void close() {
    closeConstantVectors();
  }

  private void closeConstantVectors() {
    try {
      AutoCloseables.close(constantVectors);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot release constant columns", e);
    } finally {
      constantVectors.clear();
    }
  }
}
