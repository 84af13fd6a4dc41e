package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Fills a batch's key column with its rows' sort keys, batch after batch: the column is allocated
 * from the previous batch's average key size, so most batches fit at once. The sorter fills the key
 * column of each batch it takes in; a run's reader fills its own key column for each batch it
 * loads, runs being spilled without keys.
 */
final class BatchKeyColumn {
  /** Bytes per key allocated beyond the previous batch's average. */
  private static final int KEY_BYTES_SLACK = 4;

  private final SortKeyEncoder encoder;
  private final KeyBytes key = new KeyBytes();
  private int bytesPerKey = 16;

  BatchKeyColumn(SortKeyEncoder encoder) {
    this.encoder = requireNonNull(encoder, "encoder is null");
  }

  /**
   * Writes the keys of {@code batch}'s first {@code rows} rows into {@code keys}, each also to
   * {@code consumer}.
   */
  void fill(
      VectorSchemaRoot batch, int rows, VarBinaryVector keys, SortKeyEncoder.RowKeys consumer) {
    KeyColumnWriter writer = new KeyColumnWriter(keys, rows, bytesPerKey + KEY_BYTES_SLACK);
    encoder.encodeRows(
        batch,
        rows,
        key,
        (row, rowKey) -> {
          writer.put(rowKey);
          consumer.accept(row, rowKey);
        });
    bytesPerKey = (writer.finish() + rows - 1) / rows;
  }
}
