package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.testing.ParquetFooters;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
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
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.flink.FlinkSchemaUtil;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.source.FlinkSource;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written by Flink's {@code IcebergSink} on a MiniCluster (a commit every 200 ms
 * checkpoint, two writers), compacted by binpack through the core: every file merges without
 * decoding and the rows stay the same, also across a codec change between two sink jobs and with
 * files of Iceberg's generic Parquet writer in the same group; Flink reads the merged file back.
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
    HadoopCatalog catalog = createTable("zstd");
    writeRows(0, ROWS);
    Table table = catalog.loadTable(IDENTIFIER);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(ROWS);
    assertThat(ParquetFooters.dataFiles(table)).hasSizeGreaterThanOrEqualTo(5);

    compactKeepingRows(table, CompactionRequest.binpack());

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
    DataFile merged = ParquetFooters.dataFiles(table).get(0);
    assertThat(merged.recordCount()).isEqualTo(ROWS);
    assertThat(merged.lowerBounds()).containsKeys(1, 3, 4, 5);
    assertThat(merged.nullValueCounts().get(6)).isEqualTo(ROWS / 3 + 1);
  }

  @Test
  void mergesFilesOfTwoSinkJobsAcrossACodecChangeWithoutDecoding() throws Exception {
    HadoopCatalog catalog = createTable("snappy");
    writeRows(0, ROWS / 2);
    catalog
        .loadTable(IDENTIFIER)
        .updateProperties()
        .set(TableProperties.PARQUET_COMPRESSION, "zstd")
        .commit();
    writeRows(ROWS / 2, ROWS / 2);
    Table table = catalog.loadTable(IDENTIFIER);
    assertThat(ParquetFooters.codecs(table)).containsExactly("SNAPPY", "ZSTD");

    compactKeepingRows(table, CompactionRequest.binpack());

    assertThat(ParquetFooters.codecs(table))
        .as("a chunk merged from pages in several codecs takes the table's codec")
        .containsExactly("ZSTD");
  }

  @Test
  void mergesSinkAndIcebergGenericWriterFilesInOneGroupWithoutDecoding() throws Exception {
    HadoopCatalog catalog = createTable("zstd");
    writeRows(0, ROWS / 2);
    Table table = catalog.loadTable(IDENTIFIER);
    List<Record> generic = new ArrayList<>();
    for (long index = ROWS / 2; index < ROWS; index++) {
      generic.add(record(index));
    }
    TableFiles.append(table, null, generic.subList(0, generic.size() / 2));
    TableFiles.append(table, null, generic.subList(generic.size() / 2, generic.size()));
    table.refresh();
    Table expected = catalog.createTable(TableIdentifier.of("db", "expected"), SCHEMA);
    List<Record> all = new ArrayList<>();
    for (long index = 0; index < ROWS; index++) {
      all.add(record(index));
    }
    TableFiles.append(expected, null, all);
    assertThat(RowFingerprint.of(table))
        .as("the generic writer's rows and the sink's are the rows expected")
        .isEqualTo(RowFingerprint.of(expected));

    compactKeepingRows(table, CompactionRequest.binpack());
  }

  private HadoopCatalog createTable(String codec) {
    HadoopCatalog catalog = TestJobs.catalog(warehouse);
    catalog.createTable(
        IDENTIFIER,
        SCHEMA,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.PARQUET_COMPRESSION, codec));
    return catalog;
  }

  /**
   * One sink job writing rows {@code from} to {@code from + count - 1}, committing per checkpoint.
   */
  private void writeRows(long from, long count) throws Exception {
    StreamExecutionEnvironment env = TestJobs.environment(Duration.ofMillis(200));
    DataStream<RowData> rows =
        env.fromSource(
            new DataGeneratorSource<>(
                index -> row(from + index),
                count,
                RateLimiterStrategy.perCheckpoint(ROWS_PER_CHECKPOINT),
                InternalTypeInfo.of(FlinkSchemaUtil.convert(SCHEMA))),
            WatermarkStrategy.noWatermarks(),
            "rows");
    IcebergSink.forRowData(rows).tableLoader(TestJobs.loader(warehouse, IDENTIFIER)).append();
    env.execute("flink-written-files");
  }

  /**
   * Compacts through the core into one file and checks the decode-free path and the rows, as the
   * core reads them (fingerprint) and as a Flink job reads them back.
   */
  private void compactKeepingRows(Table table, CompactionRequest request) throws Exception {
    RowFingerprint before = RowFingerprint.of(table);
    List<String> flinkBefore = readWithFlink();
    int filesBefore = ParquetFooters.dataFiles(table).size();

    CompactionResult result = new TableCompactor().compact(table, request);

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.inputFiles()).isEqualTo(filesBefore);
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    table.refresh();
    assertThat(ParquetFooters.dataFiles(table)).hasSize(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(readWithFlink()).hasSize((int) ROWS).isEqualTo(flinkBefore);
  }

  /**
   * Every row of the table as a bounded Flink source reads it, as text, sorted ({@code
   * FlinkSource}: {@code IcebergSource} needs flink-connector-base, which this module does not
   * have).
   */
  private List<String> readWithFlink() throws Exception {
    RowType type = FlinkSchemaUtil.convert(SCHEMA);
    List<RowData.FieldGetter> getters = new ArrayList<>();
    for (int field = 0; field < type.getFieldCount(); field++) {
      getters.add(RowData.createFieldGetter(type.getTypeAt(field), field));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<String> rows = new ArrayList<>();
    try (CloseableIterator<String> read =
        FlinkSource.forRowData()
            .env(env)
            .tableLoader(TestJobs.loader(warehouse, IDENTIFIER))
            .streaming(false)
            .build()
            .map(row -> text(row, getters))
            .executeAndCollect()) {
      read.forEachRemaining(rows::add);
    }
    Collections.sort(rows);
    return rows;
  }

  private static String text(RowData row, List<RowData.FieldGetter> getters) {
    StringBuilder text = new StringBuilder();
    for (RowData.FieldGetter getter : getters) {
      text.append(getter.getFieldOrNull(row)).append('|');
    }
    return text.toString();
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

  /** The row {@link #row} makes, as the record Iceberg's generic writer takes. */
  private static Record record(long index) {
    GenericRecord record = GenericRecord.create(SCHEMA);
    record.setField("id", index);
    record.setField("category", index % 7 == 0 ? null : "category-" + index % 5);
    record.setField("amount", BigDecimal.valueOf(index % 10_000, 2));
    record.setField(
        "event_time",
        LocalDateTime.ofInstant(
            Instant.ofEpochMilli(1_700_000_000_000L + index * 1_000), ZoneOffset.UTC));
    record.setField("score", index % 5 == 0 ? null : index * 0.25);
    record.setField("note", index % 3 == 0 ? null : "note-" + index);
    return record;
  }
}
