package dev.lakeops.rewrite.read;

import static dev.lakeops.testing.RandomValues.bytes;
import static dev.lakeops.testing.RandomValues.nullOr;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.rewrite.LiveRowReader;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The columnar reader against the record path it replaces: for every table here both read the same
 * live rows, value for value, and the columnar reader takes every file it should.
 */
class LiveBatchReaderTest {
  private static final Schema ALL_TYPES =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
          Types.NestedField.optional(3, "small", Types.IntegerType.get()),
          Types.NestedField.optional(4, "ratio", Types.FloatType.get()),
          Types.NestedField.optional(5, "amount", Types.DoubleType.get()),
          Types.NestedField.optional(6, "day", Types.DateType.get()),
          Types.NestedField.optional(7, "clock", Types.TimeType.get()),
          Types.NestedField.optional(8, "local_ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(9, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(10, "name", Types.StringType.get()),
          Types.NestedField.optional(11, "blob", Types.BinaryType.get()),
          Types.NestedField.optional(12, "code", Types.FixedType.ofLength(3)),
          Types.NestedField.optional(13, "uid", Types.UUIDType.get()),
          Types.NestedField.optional(14, "price", Types.DecimalType.of(9, 2)),
          Types.NestedField.optional(15, "total", Types.DecimalType.of(18, 4)),
          Types.NestedField.optional(16, "huge", Types.DecimalType.of(38, 10)));

  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private RootAllocator allocator;

  @BeforeEach
  void create() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    allocator = new RootAllocator(256L << 20);
  }

  @AfterEach
  void closeAllocatorFailingOnLeaks() {
    allocator.close();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void decodesEveryPrimitiveTypeAndNullLikeTheRecordPath(int formatVersion) {
    Table table = table("all_types", ALL_TYPES, formatVersion);
    Random random = new Random(3);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 20_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    TableFiles.append(table, null, rows.subList(0, 9_000));
    TableFiles.append(table, null, rows.subList(9_000, rows.size()));

    Comparison comparison = compare(table);

    assertThat(comparison.columnar()).hasSize(20_000).isEqualTo(comparison.records());
    assertThat(comparison.columnarFiles()).isEqualTo(2);
    assertThat(comparison.recordFiles()).isZero();
    assertThat(comparison.columnar())
        .anySatisfy(
            row -> assertThat(row.subList(1, ALL_TYPES.columns().size())).containsOnlyNulls());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(WriterVersion.class)
  void pagesAreDecodedLikeTheRecordPathAcrossPagesDictionaryFallbackNullsAndDeletes(
      WriterVersion version) throws IOException {
    Table table = table("pages_" + version.name().toLowerCase(Locale.ROOT), ALL_TYPES, 2);
    Random random = new Random(11);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 30_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    // small pages and dictionaries: batches span pages, dictionaries fall back to plain mid-chunk
    // (v1: PLAIN pages; v2: DELTA pages, which Parquet's column reader decodes instead)
    DataFile file =
        appendWritten(
            table,
            rows,
            version,
            Map.of(
                TableProperties.PARQUET_PAGE_SIZE_BYTES, "4096",
                TableProperties.PARQUET_DICT_SIZE_BYTES, "2048",
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "400000"));
    long[] deleted =
        LongStream.concat(
                LongStream.of(0, 1, 20_000, 29_999),
                LongStream.concat(LongStream.range(4_000, 4_300), LongStream.range(9_000, 17_300)))
            .toArray();
    TableFiles.deletePositions(table, file, deleted);

    Comparison comparison = compare(table);

    assertThat(comparison.columnar())
        .hasSize(30_000 - deleted.length)
        .isEqualTo(comparison.records());
    assertThat(comparison.pageDecodedChunks()).isPositive();
  }

  @Test
  void positionDeletesAreSkippedAcrossBatchesIncludingWholeBatches() {
    Table table = table("position_deletes", ALL_TYPES, 2);
    Random random = new Random(5);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 25_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    DataFile file = TableFiles.append(table, null, rows);
    long[] deleted =
        LongStream.concat(
                LongStream.of(0, 1, 8_191, 20_000, 24_999), LongStream.range(8_192, 16_384))
            .toArray();
    TableFiles.deletePositions(table, file, deleted);

    Comparison comparison = compare(table);

    assertThat(comparison.columnar())
        .hasSize(25_000 - deleted.length)
        .isEqualTo(comparison.records());
    assertThat(comparison.columnar())
        .noneMatch(row -> row.get(0).equals(8_191L) || row.get(0).equals(12_000L));
    assertThat(comparison.columnarFiles()).isEqualTo(1);
  }

  @Test
  void rowGroupsAreReadInTurnWithPositionsCountedAcrossThem() {
    Table table = table("row_groups", ALL_TYPES, 2);
    table.updateProperties().set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "65536").commit();
    Random random = new Random(19);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 30_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    DataFile file = TableFiles.append(table, null, rows);
    TableFiles.deletePositions(
        table, file, LongStream.range(0, 30_000).filter(position -> position % 777 == 5).toArray());

    Comparison comparison = compare(table);

    assertThat(rowGroups(table, file)).isGreaterThan(3);
    assertThat(comparison.columnar()).hasSize(30_000 - 39).isEqualTo(comparison.records());
    assertThat(comparison.columnarFiles()).isEqualTo(1);
  }

  private static int rowGroups(Table table, DataFile file) {
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            new IcebergParquetInputFile(table.io().newInputFile(file)))) {
      return reader.getRowGroups().size();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void deletionVectorsAreApplied() {
    Table table = table("deletion_vectors", ALL_TYPES, 3);
    Random random = new Random(7);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 10_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    DataFile file = TableFiles.append(table, null, rows);
    TableFiles.deletionVector(table, file, 3, 4, 5, 9_999);

    Comparison comparison = compare(table);

    assertThat(comparison.columnar()).hasSize(9_996).isEqualTo(comparison.records());
    assertThat(comparison.columnarFiles()).isEqualTo(1);
  }

  @Test
  void equalityDeletesTakeTheRecordPath() {
    Table table = table("equality_deletes", ALL_TYPES, 2);
    Random random = new Random(9);
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < 3_000; index++) {
      rows.add(allTypesRow(random, index));
    }
    TableFiles.append(table, null, rows);
    TableFiles.deleteEqual(table, null, "id", 10L, 20L, 30L);

    Comparison comparison = compare(table);

    assertThat(comparison.columnar()).hasSize(2_997).isEqualTo(comparison.records());
    assertThat(comparison.columnarFiles()).isZero();
    assertThat(comparison.recordFiles()).isEqualTo(1);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void renamedAddedAndPromotedColumnsReadAsTheTableSeesThemToday(int formatVersion) {
    Schema original =
        new Schema(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "score", Types.FloatType.get()),
            Types.NestedField.optional(4, "price", Types.DecimalType.of(9, 2)));
    Table table = table("evolved", original, formatVersion);
    List<Record> oldRows = new ArrayList<>();
    for (int index = 0; index < 5_000; index++) {
      GenericRecord row = GenericRecord.create(original);
      row.setField("id", index);
      row.setField("name", index % 7 == 0 ? null : "name-" + index);
      row.setField("score", index % 5 == 0 ? null : index / 3.0f);
      row.setField("price", BigDecimal.valueOf(index * 13L, 2));
      oldRows.add(row);
    }
    TableFiles.append(table, null, oldRows);
    table
        .updateSchema()
        .renameColumn("name", "label")
        .updateColumn("id", Types.LongType.get())
        .updateColumn("score", Types.DoubleType.get())
        .updateColumn("price", Types.DecimalType.of(20, 2))
        .addColumn("extra", Types.StringType.get())
        .commit();
    List<Record> newRows = new ArrayList<>();
    for (int index = 0; index < 1_000; index++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", 1L << 40 | index);
      row.setField("label", "new-" + index);
      row.setField("score", index * 1.5);
      row.setField("price", BigDecimal.valueOf(index, 2));
      row.setField("extra", index % 2 == 0 ? null : "extra-" + index);
      newRows.add(row);
    }
    TableFiles.append(table, null, newRows);

    Comparison comparison = compare(table);

    assertThat(comparison.columnar()).hasSize(6_000).isEqualTo(comparison.records());
    assertThat(comparison.columnarFiles()).isEqualTo(2);
    assertThat(comparison.columnar())
        .anySatisfy(
            row ->
                assertThat(row.subList(0, 5))
                    .isEqualTo(
                        Arrays.asList(
                            16L, "name-16", (double) (16 / 3.0f), new BigDecimal("2.08"), null)));
  }

  /**
   * Writes {@code rows} with Iceberg's Parquet writer in the given Parquet format version and
   * appends them.
   */
  private static DataFile appendWritten(
      Table table, List<Record> rows, WriterVersion version, Map<String, String> properties)
      throws IOException {
    OutputFile output =
        table
            .io()
            .newOutputFile(
                table.locationProvider().newDataLocation("pages-" + version + ".parquet"));
    FileAppender<Record> appender =
        Parquet.write(output)
            .schema(table.schema())
            .createWriterFunc(GenericParquetWriter::create)
            .setAll(properties)
            .writerVersion(version)
            .build();
    try (appender) {
      appender.addAll(rows);
    }
    DataFile file =
        DataFiles.builder(table.spec())
            .withPath(output.location())
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(appender.length())
            .withMetrics(appender.metrics())
            .withSplitOffsets(appender.splitOffsets())
            .build();
    table.newAppend().appendFile(file).commit();
    return file;
  }

  private Table table(String name, Schema schema, int formatVersion) {
    if (!catalog.namespaceExists(Namespace.of("db"))) {
      catalog.createNamespace(Namespace.of("db"));
    }
    return catalog.createTable(
        TableIdentifier.of("db", name),
        schema,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
  }

  private static Record allTypesRow(Random random, int index) {
    GenericRecord row = GenericRecord.create(ALL_TYPES);
    row.setField("id", (long) index);
    if (index % 97 == 0) {
      return row;
    }
    row.setField("flag", nullOr(random, random.nextBoolean()));
    row.setField("small", nullOr(random, random.nextInt()));
    row.setField("ratio", nullOr(random, random.nextFloat() * 1000 - 500));
    row.setField("amount", nullOr(random, random.nextGaussian() * 1e6));
    row.setField(
        "day", nullOr(random, LocalDate.of(2026, 1, 1).plusDays(random.nextInt(2000) - 1000)));
    row.setField(
        "clock", nullOr(random, LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000L) * 1000)));
    row.setField(
        "local_ts",
        nullOr(
            random,
            LocalDateTime.of(2026, 3, 1, 12, 0).plusNanos(random.nextLong(1L << 50) * 1000)));
    row.setField(
        "ts",
        nullOr(
            random,
            OffsetDateTime.of(2026, 3, 1, 12, 0, 0, 0, ZoneOffset.UTC)
                .minusSeconds(random.nextInt(1 << 30))));
    row.setField("name", nullOr(random, "n" + "é".repeat(random.nextInt(4)) + random.nextInt(500)));
    row.setField("blob", nullOr(random, ByteBuffer.wrap(bytes(random, random.nextInt(20)))));
    row.setField("code", nullOr(random, bytes(random, 3)));
    row.setField("uid", nullOr(random, new UUID(random.nextLong(), random.nextLong())));
    row.setField(
        "price",
        nullOr(random, BigDecimal.valueOf(random.nextInt(1_000_000_000) - 500_000_000, 2)));
    row.setField("total", nullOr(random, BigDecimal.valueOf(random.nextLong() / 1000, 4)));
    row.setField(
        "huge",
        nullOr(
            random,
            new BigDecimal(new java.math.BigInteger(120, random)).negate().movePointLeft(10)));
    return row;
  }

  /** Reads every live row of {@code table} both ways. */
  private Comparison compare(Table table) {
    Schema writeSchema = WriteSchemas.forTable(table);
    org.apache.arrow.vector.types.pojo.Schema batchSchema = ArrowSchemas.toArrow(writeSchema);
    LiveBatchReader reader = new LiveBatchReader(table, writeSchema, batchSchema);
    List<ColumnTransfer> transfers =
        writeSchema.columns().stream().map(field -> ColumnTransfers.forType(field.type())).toList();
    LiveRowReader records = new LiveRowReader(table, writeSchema);
    List<List<Object>> columnar = new ArrayList<>();
    List<List<Object>> viaRecords = new ArrayList<>();
    try (BufferAllocator child = allocator.newChildAllocator("test", 0, 64L << 20);
        CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        try (LiveBatches batches = reader.open(task, child)) {
          collect(batches, columnar);
        }
        try (LiveBatches batches =
            new RecordBatches(records.openRows(task), transfers, batchSchema, child)) {
          collect(batches, viaRecords);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Comparison(
        columnar,
        viaRecords,
        reader.columnarFiles(),
        reader.recordFiles(),
        reader.pageDecodedChunks());
  }

  private static void collect(LiveBatches batches, List<List<Object>> rows) throws IOException {
    VectorSchemaRoot batch;
    while ((batch = batches.next()) != null) {
      try (VectorSchemaRoot closing = batch) {
        assertThat(batch.getRowCount()).isBetween(1, LiveBatches.BATCH_ROWS);
        for (int row = 0; row < batch.getRowCount(); row++) {
          List<Object> values = new ArrayList<>();
          for (FieldVector vector : batch.getFieldVectors()) {
            values.add(normalized(vector.getObject(row)));
          }
          rows.add(values);
        }
      }
    }
  }

  private static Object normalized(Object value) {
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    if (value instanceof org.apache.arrow.vector.util.Text text) {
      return text.toString();
    }
    return value;
  }

  private record Comparison(
      List<List<Object>> columnar,
      List<List<Object>> records,
      int columnarFiles,
      int recordFiles,
      long pageDecodedChunks) {}
}
