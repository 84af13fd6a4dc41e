package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;

/**
 * Fills a {@link SimpleTables} table with many small data files that exist only in metadata:
 * Iceberg's {@code DataFiles.builder} entries with sizes, record counts and column bounds (as a
 * footer would give them), appended in a few big commits. For planning and commit tests at the
 * scale of 100,000+ files; nothing can read the rows.
 */
public final class MetadataOnlyTables {
  /** Files per append commit. */
  private static final int FILES_PER_COMMIT = 50_000;

  private MetadataOnlyTables() {}

  /**
   * Appends {@code files} files of {@code fileBytes} bytes and {@code recordsPerFile} rows each,
   * spread round-robin over {@code partitions} values of {@code part}.
   */
  public static void appendSmallFiles(
      Table table, int files, int partitions, long fileBytes, long recordsPerFile) {
    requireNonNull(table, "table is null");
    AppendFiles append = table.newAppend();
    int pending = 0;
    for (int file = 0; file < files; file++) {
      int part = file % partitions;
      append.appendFile(dataFile(table, part, file, fileBytes, recordsPerFile));
      pending++;
      if (pending == FILES_PER_COMMIT) {
        append.commit();
        append = table.newAppend();
        pending = 0;
      }
    }
    if (pending > 0) {
      append.commit();
    }
  }

  /** One metadata-only file of partition {@code part}, the {@code number}th of the table. */
  public static DataFile dataFile(
      Table table, int part, long number, long fileBytes, long recordsPerFile) {
    PartitionKey partition = SimpleTables.partition(table, part);
    long firstId = number * recordsPerFile;
    Metrics metrics =
        new Metrics(
            recordsPerFile,
            Map.of(1, 8 * recordsPerFile, 2, 4 * recordsPerFile, 3, 12 * recordsPerFile),
            Map.of(1, recordsPerFile, 2, recordsPerFile, 3, recordsPerFile),
            Map.of(1, 0L, 2, 0L, 3, 0L),
            null,
            Map.of(
                1, bound(Types.LongType.get(), firstId),
                2, bound(Types.IntegerType.get(), part),
                3, bound(Types.StringType.get(), "row-" + firstId)),
            Map.of(
                1, bound(Types.LongType.get(), firstId + recordsPerFile - 1),
                2, bound(Types.IntegerType.get(), part),
                3, bound(Types.StringType.get(), "row-" + (firstId + recordsPerFile - 1))));
    return DataFiles.builder(table.spec())
        .withPath(
            table.location()
                + "/data/part="
                + part
                + "/00000-"
                + number
                + "-metadata-only-file.parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(fileBytes)
        .withPartition(partition)
        .withMetrics(metrics)
        .withSplitOffsets(java.util.List.of(4L))
        .build();
  }

  private static ByteBuffer bound(org.apache.iceberg.types.Type type, Object value) {
    return Conversions.toByteBuffer(type, value);
  }
}
