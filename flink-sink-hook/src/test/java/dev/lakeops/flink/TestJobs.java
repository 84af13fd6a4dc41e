package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.flink.CatalogLoader;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/** The small Flink job the hook's MiniCluster tests run: rows of a 2-partition table through IcebergSink. */
final class TestJobs {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get()));
  static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "events");

  private TestJobs() {}

  static HadoopCatalog createTable(Path warehouse) {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    catalog.createTable(
        IDENTIFIER, SCHEMA, PartitionSpec.builderFor(SCHEMA).identity("category").build(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    return catalog;
  }

  static TableLoader loader(Path warehouse) {
    return TableLoader.fromCatalog(
        CatalogLoader.hadoop("hadoop", new Configuration(), Map.of("warehouse", warehouse.toString())),
        IDENTIFIER);
  }

  /** {@code rows} rows, {@code rowsPerCheckpoint} per checkpoint, written by Iceberg's sink. */
  static DataStreamSink<RowData> writeRows(
      StreamExecutionEnvironment env, TableLoader loader, long rows, int rowsPerCheckpoint) {
    DataStream<RowData> stream =
        env.fromSource(
            new DataGeneratorSource<>(
                TestJobs::row, rows, RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "rows");
    return IcebergSink.forRowData(stream).tableLoader(loader).append();
  }

  private static RowData row(Long index) {
    return GenericRowData.of(
        index, StringData.fromString(category(index)), StringData.fromString("payload-" + index));
  }

  private static String category(long index) {
    return index % 2 == 0 ? "a" : "b";
  }

  /** The table holds exactly rows 0 to {@code rows - 1}: same count and checksum as a table written directly. */
  static void assertHoldsExactly(HadoopCatalog catalog, long rows) throws IOException {
    RowFingerprint written = RowFingerprint.of(catalog.loadTable(IDENTIFIER));
    assertThat(written.rowCount()).isEqualTo(rows);
    assertThat(written).isEqualTo(RowFingerprint.of(expectedTable(catalog, rows)));
  }

  private static Table expectedTable(HadoopCatalog catalog, long rows) throws IOException {
    Table expected = catalog.createTable(TableIdentifier.of("db", "expected"), SCHEMA);
    OutputFileFactory files = OutputFileFactory.builderFor(expected, 1, 1).format(FileFormat.PARQUET).build();
    DataFile file;
    try (DataWriter<Record> writer =
        Parquet.writeData(files.newOutputFile())
            .forTable(expected)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build()) {
      for (long index = 0; index < rows; index++) {
        GenericRecord record = GenericRecord.create(SCHEMA);
        record.setField("id", index);
        record.setField("category", category(index));
        record.setField("payload", "payload-" + index);
        writer.write(record);
      }
      writer.close();
      file = writer.toDataFile();
    }
    expected.newAppend().appendFile(file).commit();
    return expected;
  }

  static long writerCommits(Table table) {
    return snapshotsWith(table, DataOperations.APPEND);
  }

  static long compactions(Table table) {
    return snapshotsWith(table, DataOperations.REPLACE);
  }

  /** Rows the writer committed so far. */
  static long committedRows(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .filter(snapshot -> DataOperations.APPEND.equals(snapshot.operation()))
        .mapToLong(snapshot -> Long.parseLong(snapshot.summary().getOrDefault("added-records", "0")))
        .sum();
  }

  private static long snapshotsWith(Table table, String operation) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::operation)
        .filter(operation::equals)
        .count();
  }
}
