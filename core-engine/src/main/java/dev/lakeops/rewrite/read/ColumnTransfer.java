package dev.lakeops.rewrite.read;

import org.apache.arrow.vector.FieldVector;

/** Moves Iceberg generic values of one flat column into an Arrow vector. */
@FunctionalInterface
public interface ColumnTransfer {
  /** Sets row {@code row} of {@code vector} from a non-null Iceberg generic value. */
  void set(FieldVector vector, int row, Object value);
}
