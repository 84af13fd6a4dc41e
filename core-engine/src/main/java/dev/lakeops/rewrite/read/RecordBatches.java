package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.LiveRowReader;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.data.Record;

/**
 * The general path: live rows as Iceberg generic records ({@link LiveRowReader}: equality deletes,
 * name mapping, partition constants, every Parquet encoding Iceberg reads), copied into Arrow
 * batches value by value. Slower than {@link ColumnarFileReader}; taken only where that cannot go.
 */
final class RecordBatches implements LiveBatches {
  private final LiveRowReader.Rows rows;
  private final List<ColumnTransfer> transfers;
  private final Schema batchSchema;
  private final BufferAllocator allocator;

  RecordBatches(
      LiveRowReader.Rows rows,
      List<ColumnTransfer> transfers,
      Schema batchSchema,
      BufferAllocator allocator) {
    this.rows = requireNonNull(rows, "rows is null");
    this.transfers = List.copyOf(requireNonNull(transfers, "transfers is null"));
    this.batchSchema = requireNonNull(batchSchema, "batchSchema is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
  }

  @Override
  public VectorSchemaRoot next() {
    if (!rows.hasNext()) {
      return null;
    }
    VectorSchemaRoot batch = VectorSchemaRoot.create(batchSchema, allocator);
    try {
      List<FieldVector> vectors = batch.getFieldVectors();
      int row = 0;
      while (row < BATCH_ROWS && rows.hasNext()) {
        Record record = rows.next();
        for (int column = 0; column < transfers.size(); column++) {
          Object value = record.get(column);
          if (value == null) {
            vectors.get(column).setNull(row);
          } else {
            transfers.get(column).set(vectors.get(column), row, value);
          }
        }
        row++;
      }
      batch.setRowCount(row);
      return batch;
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
  }

  @Override
  public long rowsRead() {
    return rows.rowsRead();
  }

  @Override
  public long rowsDeleted() {
    return rows.rowsDeleted();
  }

  @Override
  public void close() throws IOException {
    rows.close();
  }
}
