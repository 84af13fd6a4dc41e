package dev.lakeops.rewrite.arrow;

import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnWriter;

/**
 * Moves one flat column: Iceberg generic values into an Arrow vector, and the vector's values into
 * a Parquet column writer.
 */
public interface ColumnTransfer {
  /** Sets row {@code row} of {@code vector} from a non-null Iceberg generic value. */
  void set(FieldVector vector, int row, Object value);

  /**
   * Writes rows {@code [0, rowCount)} of {@code vector} to {@code writer}, non-null values at
   * {@code maxDefinition}.
   */
  void writeColumn(FieldVector vector, int rowCount, ColumnWriter writer, int maxDefinition);
}
