package dev.lakeops.bench;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The planning benchmark's table: {@code (id long, part int, data string)}, format v2, identity
 * partitioned by {@code part}, filled with small data files that exist only in metadata ({@code
 * DataFiles.builder} entries with sizes, record counts and column bounds as a footer would give
 * them), appended in commits of 50,000 files. Nothing can read the rows. The same shape as the core
 * tests' {@code MetadataOnlyTables}, which the benchmark cannot reach at compile time (see the
 * planning-benchmark profile in this module's pom).
 */
final class MetadataOnlyTable {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "data", Types.StringType.get()));
  private static final int FILES_PER_COMMIT = 50_000;

  private MetadataOnlyTable() {}

  static Table create(Catalog catalog, TableIdentifier name) {
    requireNonNull(catalog, "catalog is null");
    return catalog.createTable(
        name,
        SCHEMA,
        PartitionSpec.builderFor(SCHEMA).identity("part").build(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
  }

  /**
   * Appends {@code files} files of {@code fileBytes} bytes and {@code recordsPerFile} rows each,
   * spread round-robin over {@code partitions} values of {@code part}.
   */
  static void appendSmallFiles(
      Table table, int files, int partitions, long fileBytes, long recordsPerFile) {
    requireNonNull(table, "table is null");
    AppendFiles append = table.newAppend();
    int pending = 0;
    for (int file = 0; file < files; file++) {
      append.appendFile(dataFile(table, file % partitions, file, fileBytes, recordsPerFile));
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

  private static DataFile dataFile(
      Table table, int part, long number, long fileBytes, long recordsPerFile) {
    long firstId = number * recordsPerFile;
    long lastId = firstId + recordsPerFile - 1;
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
                1, bound(Types.LongType.get(), lastId),
                2, bound(Types.IntegerType.get(), part),
                3, bound(Types.StringType.get(), "row-" + lastId)));
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
        .withPartition(partition(table, part))
        .withMetrics(metrics)
        .withSplitOffsets(List.of(4L))
        .build();
  }

  private static PartitionKey partition(Table table, int part) {
    GenericRecord row = GenericRecord.create(table.schema());
    row.setField("id", 0L);
    row.setField("part", part);
    row.setField("data", "");
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(row);
    return key;
  }

  private static ByteBuffer bound(Type type, Object value) {
    return Conversions.toByteBuffer(type, value);
  }
}
