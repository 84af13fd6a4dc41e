package dev.lakeops.advise;

import dev.lakeops.rewrite.ParquetWriteSettings;
import org.apache.iceberg.Table;

/**
 * The Parquet row-group size an advised sort or Z-order writes: {@value #ROW_GROUPS_PER_FILE} row
 * groups per file (the target file size, or a partition's bytes when smaller, divided by {@value
 * #ROW_GROUPS_PER_FILE}), at least {@value #MINIMUM_BYTES} bytes and at most the table's own {@code
 * write.parquet.row-group-size-bytes}. Sorted data puts each value in one row group, so a filter on
 * the sort column reads about one row group in {@value #ROW_GROUPS_PER_FILE} of a file instead of
 * the whole file at the default 512 MB target and 128 MB row groups; below 1 MB the per-row-group
 * overhead (column chunk headers, footer entries, smaller compression windows) costs more than it
 * saves. Readers that use Parquet page indexes (column and offset indexes, which the writer always
 * writes) skip pages within the row groups too.
 */
public final class AdvisedRowGroupSize {
  /** Row groups per sorted file the advice aims at. */
  public static final int ROW_GROUPS_PER_FILE = 16;

  /** The smallest row group it advises. */
  public static final long MINIMUM_BYTES = 1L << 20;

  private AdvisedRowGroupSize() {}

  /** The row-group size for a layout of {@code table} into files of {@code targetFileSizeBytes}. */
  public static long of(Table table, long targetFileSizeBytes, long largestPartitionBytes) {
    long tableRowGroup = ParquetWriteSettings.of(table).rowGroupSizeBytes();
    long fileBytes = Math.min(targetFileSizeBytes, Math.max(1, largestPartitionBytes));
    return Math.max(MINIMUM_BYTES, Math.min(tableRowGroup, fileBytes / ROW_GROUPS_PER_FILE));
  }

  /** The bytes of one unit of skipping: a row group, but never more than a file. */
  static long unitBytes(Table table, long targetFileSizeBytes, long largestPartitionBytes) {
    return Math.min(targetFileSizeBytes, of(table, targetFileSizeBytes, largestPartitionBytes));
  }
}
