package dev.lakeops.rewrite.read;

import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnReader;

/** Moves the current, non-null value of a Parquet column reader into a cell of an Arrow vector. */
@FunctionalInterface
interface ColumnDecoder {
  void decode(ColumnReader reader, FieldVector vector, int row);
}
