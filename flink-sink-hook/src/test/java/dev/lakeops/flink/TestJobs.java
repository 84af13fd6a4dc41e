package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
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

/**
 * What the hook's MiniCluster tests share: the cluster, the job environment, and the small job they
 * run (rows of a 2-partition table through IcebergSink) with the checks of its result.
 */
final class TestJobs {
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get()));
  static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "events");

  private TestJobs() {}

  /** One TaskManager with two slots. */
  static MiniClusterExtension miniCluster(Configuration configuration) {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(configuration)
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());
  }

  /**
   * A job environment: parallelism 2, no restarts, a checkpoint every {@code checkpointInterval}.
   */
  static StreamExecutionEnvironment environment(Duration checkpointInterval) {
    Configuration configuration = new Configuration();
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.enableCheckpointing(checkpointInterval.toMillis());
    env.setParallelism(2);
    return env;
  }

  static HadoopCatalog catalog(Path warehouse) {
    return new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse.toString());
  }

  static HadoopCatalog createTable(Path warehouse) {
    HadoopCatalog catalog = catalog(warehouse);
    catalog.createTable(
        IDENTIFIER,
        SCHEMA,
        PartitionSpec.builderFor(SCHEMA).identity("category").build(),
        Map.of(TableProperties.FORMAT_VERSION, "2"));
    return catalog;
  }

  static TableLoader loader(Path warehouse) {
    return loader(warehouse, IDENTIFIER);
  }

  static TableLoader loader(Path warehouse, TableIdentifier identifier) {
    return TableLoader.fromCatalog(
        CatalogLoader.hadoop(
            "hadoop",
            new org.apache.hadoop.conf.Configuration(),
            Map.of("warehouse", warehouse.toString())),
        identifier);
  }

  /** The hook, set to compact as soon as two new files are committed. */
  static LakeOpsCompaction.Builder compactingEveryTwoFiles(TableLoader loader) {
    return LakeOpsCompaction.forTable(loader)
        .minNewFiles(2)
        .minInterval(Duration.ZERO)
        .options(Map.of("min-input-files", "2"));
  }

  /**
   * Returns as soon as {@code condition} holds; fails naming {@code what} after {@code timeout}.
   */
  static void waitUntil(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("Waited " + timeout + " for " + what + " in vain");
      }
      Thread.sleep(20);
    }
  }

  /** {@code rows} rows, {@code rowsPerCheckpoint} per checkpoint, written by Iceberg's sink. */
  static DataStreamSink<RowData> writeRows(
      StreamExecutionEnvironment env, TableLoader loader, long rows, int rowsPerCheckpoint) {
    DataStream<RowData> stream =
        env.fromSource(
            new DataGeneratorSource<>(
                TestJobs::row,
                rows,
                RateLimiterStrategy.perCheckpoint(rowsPerCheckpoint),
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

  /**
   * The table holds exactly rows 0 to {@code rows - 1}: same count and checksum as a table written
   * directly.
   */
  static void assertHoldsExactly(HadoopCatalog catalog, long rows) throws IOException {
    RowFingerprint written = RowFingerprint.of(catalog.loadTable(IDENTIFIER));
    assertThat(written.rowCount()).isEqualTo(rows);
    assertThat(written).isEqualTo(RowFingerprint.of(expectedTable(catalog, rows)));
  }

  private static Table expectedTable(HadoopCatalog catalog, long rows) throws IOException {
    Table expected = catalog.createTable(TableIdentifier.of("db", "expected"), SCHEMA);
    OutputFileFactory files =
        OutputFileFactory.builderFor(expected, 1, 1).format(FileFormat.PARQUET).build();
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
        .mapToLong(
            snapshot -> Long.parseLong(snapshot.summary().getOrDefault("added-records", "0")))
        .sum();
  }

  private static long snapshotsWith(Table table, String operation) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .map(Snapshot::operation)
        .filter(operation::equals)
        .count();
  }
}
