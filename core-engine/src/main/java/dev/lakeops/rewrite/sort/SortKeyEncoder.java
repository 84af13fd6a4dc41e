package dev.lakeops.rewrite.sort;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Turns a row of an Arrow batch into a normalized sort key: byte strings whose unsigned
 * lexicographic order is the order the rows are written in. Sorting and merging then compare keys
 * only, whatever the columns, transforms, directions and null orders.
 */
interface SortKeyEncoder {
  /** Writes the key of {@code row} into {@code key}, which the caller has reset. */
  void encode(VectorSchemaRoot batch, int row, KeyBytes key);

  /**
   * The key of the leading sort field alone, so output files can roll over where that value
   * changes and keep their bounds on it apart; {@code null} when the layout has no leading field.
   */
  byte[] leadingValue(VectorSchemaRoot batch, int row);
}
