package dev.lakeops.rewrite.sort;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Copies rows between batches of the same schema, column by column. */
final class RowCopier {
  private RowCopier() {}

  static void copy(VectorSchemaRoot source, int sourceRow, VectorSchemaRoot target, int targetRow) {
    List<FieldVector> from = source.getFieldVectors();
    List<FieldVector> to = target.getFieldVectors();
    for (int column = 0; column < to.size(); column++) {
      to.get(column).copyFromSafe(sourceRow, targetRow, from.get(column));
    }
  }

  /** Empties {@code batch} for reuse, keeping its buffers. */
  static void clear(VectorSchemaRoot batch) {
    batch.getFieldVectors().forEach(FieldVector::reset);
    batch.setRowCount(0);
  }

  /** Bytes the batch's buffers hold. */
  static long bufferBytes(VectorSchemaRoot batch) {
    long bytes = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      bytes += vector.getBufferSizeFor(batch.getRowCount());
    }
    return bytes;
  }
}
