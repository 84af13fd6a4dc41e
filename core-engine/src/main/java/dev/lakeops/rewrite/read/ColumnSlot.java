package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;

/**
 * How one column of a batch is filled: from a Parquet column of the file (when it has one) and, for
 * Iceberg's row-lineage columns, with values derived from the row position where the file has none.
 *
 * @param batchIndex the column's position in the batch
 * @param fileColumn the Parquet column to read, if the file has it
 * @param decoder reads that column's values through Parquet's column reader
 * @param pageValues how {@link PageColumnDecoder} reads them instead, where it can
 * @param nullFill what replaces nulls after reading (row lineage), if anything
 */
record ColumnSlot(
    int batchIndex,
    Optional<ColumnDescriptor> fileColumn,
    Optional<ColumnDecoder> decoder,
    Optional<PageValueKind> pageValues,
    Optional<NullFill> nullFill) {
  ColumnSlot {
    requireNonNull(fileColumn, "fileColumn is null");
    requireNonNull(decoder, "decoder is null");
    requireNonNull(pageValues, "pageValues is null");
    requireNonNull(nullFill, "nullFill is null");
    if (fileColumn.isPresent() != decoder.isPresent()) {
      throw new IllegalArgumentException(
          "A file column needs a decoder and only a file column has one");
    }
  }

  static ColumnSlot read(
      int batchIndex,
      ColumnDescriptor column,
      ColumnDecoder decoder,
      Optional<PageValueKind> pageValues) {
    return new ColumnSlot(
        batchIndex, Optional.of(column), Optional.of(decoder), pageValues, Optional.empty());
  }

  static ColumnSlot nulls(int batchIndex) {
    return new ColumnSlot(
        batchIndex, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  ColumnSlot withNullFill(NullFill fill) {
    return new ColumnSlot(batchIndex, fileColumn, decoder, pageValues, Optional.of(fill));
  }

  /**
   * Reads {@code rows} rows of the file column into {@code vector}, leaving out the rows {@code
   * deleted} marks; returns the number of rows written.
   */
  int read(ColumnReader reader, FieldVector vector, int rows, boolean[] deleted) {
    ColumnDecoder values = decoder.orElseThrow();
    int maxDefinition = fileColumn.orElseThrow().getMaxDefinitionLevel();
    int target = 0;
    for (int row = 0; row < rows; row++) {
      boolean isNull = reader.getCurrentDefinitionLevel() < maxDefinition;
      if (deleted != null && deleted[row]) {
        if (!isNull) {
          reader.skip();
        }
      } else {
        if (isNull) {
          vector.setNull(target);
        } else {
          values.decode(reader, vector, target);
        }
        target++;
      }
      reader.consume();
    }
    return target;
  }

  /**
   * A long value for the null cells of a lineage column: {@code base + position} of the row in the
   * file ({@code _row_id}) or {@code base} alone ({@code _last_updated_sequence_number}).
   */
  record NullFill(long base, boolean addPosition) {
    void apply(BigIntVector vector, int rows, long[] positions) {
      for (int row = 0; row < rows; row++) {
        if (vector.isNull(row)) {
          vector.setSafe(row, addPosition ? base + positions[row] : base);
        }
      }
    }
  }
}
