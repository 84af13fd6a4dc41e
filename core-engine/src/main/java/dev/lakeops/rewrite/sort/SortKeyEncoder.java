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

  /** Receives each row's key, in {@link KeyBytes} reused from row to row. */
  @FunctionalInterface
  interface RowKeys {
    void accept(int row, KeyBytes key);
  }

  /**
   * Writes the keys of rows {@code 0} to {@code rows - 1} of {@code batch}, in order, each into
   * {@code key} (reset first) and then to {@code consumer}. Encoders that can read a column's
   * buffers once per batch instead of once per row override this.
   */
  default void encodeRows(VectorSchemaRoot batch, int rows, KeyBytes key, RowKeys consumer) {
    for (int row = 0; row < rows; row++) {
      key.reset();
      encode(batch, row, key);
      consumer.accept(row, key);
    }
  }

  /**
   * The key of the leading sort field alone, so output files can roll over where that value changes
   * and keep their bounds on it apart; {@code null} when the layout has no leading field.
   */
  byte[] leadingValue(VectorSchemaRoot batch, int row);
}
