package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written by Flink's {@code IcebergSink} on a MiniCluster (a commit every 200 ms
 * checkpoint, two writers), compacted by binpack through the core: every file merges without
 * decoding and the rows stay the same.
 */
class FlinkWrittenFilesCompactionTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "amount", Types.DecimalType.of(10, 2)),
          Types.NestedField.optional(4, "event_time", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(5, "score", Types.DoubleType.get()),
          Types.NestedField.optional(6, "note", Types.StringType.get()));
  private static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "flink_events");
  private static final long ROWS = 4_000;
  private static final int ROWS_PER_CHECKPOINT = 400;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestJobs.miniCluster(new Configuration());

  @TempDir Path warehouse;

  @Test
  void mergesFilesWrittenByTheIcebergSinkWithoutDecoding() throws Exception {
    HadoopCatalog catalog = TestJobs.catalog(warehouse);
    catalog.createTable(
        IDENTIFIER,
        SCHEMA,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.PARQUET_COMPRESSION, "zstd"));
    TableLoader loader = TestJobs.loader(warehouse, IDENTIFIER);
    StreamExecutionEnvironment env = TestJobs.environment(Duration.ofMillis(200));
    DataStream<RowData> rows =
        env.fromSource(
            new DataGeneratorSource<>(
                FlinkWrittenFilesCompactionTest::row,
                ROWS,
                RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "rows");
    IcebergSink.forRowData(rows).tableLoader(loader).append();
    env.execute("flink-written-files");

    Table table = catalog.loadTable(IDENTIFIER);
    RowFingerprint before = RowFingerprint.of(table);
    int filesBefore = dataFiles(table).size();
    assertThat(before.rowCount()).isEqualTo(ROWS);
    assertThat(filesBefore).isGreaterThanOrEqualTo(5);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.inputFiles()).isEqualTo(filesBefore);
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    table.refresh();
    assertThat(dataFiles(table)).hasSize(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    try (CloseableIterable<Record> some =
        IcebergGenerics.read(table)
            .where(Expressions.greaterThanOrEqual("id", ROWS - 100))
            .build()) {
      long matching = 0;
      for (Record record : some) {
        matching += ((Long) record.getField("id")) >= ROWS - 100 ? 1 : 0;
      }
      assertThat(matching).isEqualTo(100);
    }
    DataFile merged = dataFiles(table).get(0);
    assertThat(merged.recordCount()).isEqualTo(ROWS);
    assertThat(merged.lowerBounds()).containsKeys(1, 3, 4, 5);
    assertThat(merged.nullValueCounts().get(6)).isEqualTo(ROWS / 3 + 1);
  }

  private static RowData row(Long index) {
    return GenericRowData.of(
        index,
        index % 7 == 0 ? null : StringData.fromString("category-" + index % 5),
        DecimalData.fromBigDecimal(BigDecimal.valueOf(index % 10_000, 2), 10, 2),
        TimestampData.fromEpochMillis(1_700_000_000_000L + index * 1_000),
        index % 5 == 0 ? null : index * 0.25,
        index % 3 == 0 ? null : StringData.fromString("note-" + index));
  }

  private static List<DataFile> dataFiles(Table table) throws IOException {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    }
    return files;
  }
}
