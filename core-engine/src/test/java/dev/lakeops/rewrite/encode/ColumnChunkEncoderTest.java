package dev.lakeops.rewrite.encode;

import static dev.lakeops.testing.RandomValues.bytes;
import static dev.lakeops.testing.RandomValues.nullOr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.rewrite.ParquetWriteSettings;
import dev.lakeops.rewrite.arrow.ArrowParquetFileWriter;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.rewrite.read.ColumnTransfer;
import dev.lakeops.rewrite.read.ColumnTransfers;
import dev.lakeops.testing.ParquetRecords;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Files written through the page encoders hold exactly the rows given, and the metadata engines
 * prune with (Iceberg's bounds and counts, chunk statistics, column indexes) matches what
 * parquet-java's own writer produces for the same rows. Small pages, a small dictionary limit and
 * small row groups make every path run: dictionaries falling back mid-chunk and at the first page,
 * all-null pages, several row groups.
 */
class ColumnChunkEncoderTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "small_int", Types.IntegerType.get()),
          Types.NestedField.optional(3, "drifting_long", Types.LongType.get()),
          Types.NestedField.optional(4, "ratio", Types.FloatType.get()),
          Types.NestedField.optional(5, "amount", Types.DoubleType.get()),
          Types.NestedField.optional(6, "day", Types.DateType.get()),
          Types.NestedField.optional(7, "time_of_day", Types.TimeType.get()),
          Types.NestedField.optional(8, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(9, "local_ts", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(10, "country", Types.StringType.get()),
          Types.NestedField.optional(11, "unique_text", Types.StringType.get()),
          Types.NestedField.optional(12, "payload", Types.BinaryType.get()),
          Types.NestedField.optional(13, "flag", Types.BooleanType.get()),
          Types.NestedField.optional(14, "price", Types.DecimalType.of(9, 2)),
          Types.NestedField.required(15, "required_text", Types.StringType.get()),
          Types.NestedField.optional(16, "constant", Types.StringType.get()),
          Types.NestedField.optional(17, "always_null", Types.LongType.get()),
          Types.NestedField.optional(18, "huge_text", Types.StringType.get()));
  private static final List<String> COUNTRIES =
      List.of("", "DE", "FR", "US", "Ünïcödé", "日本", "zz-top");
  private static final int ROWS = 60_000;
  private static final int BATCH_ROWS = 2_048;
  private static final ParquetWriteSettings SETTINGS =
      new ParquetWriteSettings(
          CompressionCodecName.ZSTD, Optional.empty(), 1L << 20, 4096, 1000, 2048, false);
  private static final Map<String, String> WRITER_PROPERTIES =
      Map.of(
          TableProperties.PARQUET_COMPRESSION, "zstd",
          TableProperties.PARQUET_PAGE_SIZE_BYTES, "4096",
          TableProperties.PARQUET_PAGE_ROW_LIMIT, "1000",
          TableProperties.PARQUET_DICT_SIZE_BYTES, "2048");

  @TempDir Path directory;

  @Test
  void encodedFilesHoldTheRowsAndTheMetadataOfParquetJavasWriter() throws IOException {
    List<Record> rows = rows(new Random(42));
    File encoded = directory.resolve("encoded.parquet").toFile();
    File reference = directory.resolve("reference.parquet").toFile();
    writeEncoded(encoded, rows, Set.of());
    writeWithParquetJava(reference, rows);

    assertThat(read(encoded)).containsExactlyElementsOf(rows);
    assertSameMetrics(encoded, reference);

    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(encoded.toPath()))) {
      List<BlockMetaData> rowGroups = reader.getFooter().getBlocks();
      assertThat(rowGroups).hasSizeGreaterThan(1);
      assertThat(chunks(rowGroups, "country")).allMatch(ColumnChunkMetaData::hasDictionaryPage);
      assertThat(chunks(rowGroups, "country"))
          .allMatch(chunk -> !chunk.getEncodings().contains(Encoding.PLAIN));
      // the dictionary outgrows its 2 KB limit after some pages: dictionary pages, then PLAIN ones
      assertThat(chunks(rowGroups, "drifting_long"))
          .anyMatch(
              chunk ->
                  chunk.hasDictionaryPage()
                      && chunk
                          .getEncodings()
                          .containsAll(Set.of(Encoding.PLAIN_DICTIONARY, Encoding.PLAIN)));
      // distinct values: the dictionary does not make the first page smaller, so none is written
      assertThat(chunks(rowGroups, "unique_text"))
          .allMatch(
              chunk ->
                  !chunk.hasDictionaryPage()
                      && !chunk.getEncodings().contains(Encoding.PLAIN_DICTIONARY));
      for (BlockMetaData rowGroup : rowGroups) {
        for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
          assertColumnIndexAgrees(reader, chunk);
        }
      }
      assertPageBoundsAreThePagesOwn(reader, rowGroups, "country", rows);
    }
  }

  @Test
  void columnsAskedToStayPlainGetNoDictionary() throws IOException {
    List<Record> rows = rows(new Random(7));
    File encoded = directory.resolve("plain.parquet").toFile();
    writeEncoded(encoded, rows, Set.of("country", "small_int"));

    assertThat(read(encoded)).containsExactlyElementsOf(rows);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(encoded.toPath()))) {
      List<BlockMetaData> rowGroups = reader.getFooter().getBlocks();
      for (String column : List.of("country", "small_int")) {
        assertThat(chunks(rowGroups, column))
            .allMatch(
                chunk ->
                    !chunk.hasDictionaryPage()
                        && !chunk.getEncodings().contains(Encoding.PLAIN_DICTIONARY));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = CompressionCodecName.class,
      names = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD"})
  void everyCodecAndZstdLevelReadsBack(CompressionCodecName codec) throws IOException {
    List<Record> rows = rows(new Random(5)).subList(0, 5_000);
    ParquetWriteSettings settings =
        new ParquetWriteSettings(
            codec,
            codec == CompressionCodecName.ZSTD ? Optional.of("9") : Optional.empty(),
            1L << 20,
            4096,
            1000,
            2048,
            false);
    File encoded = directory.resolve(codec + ".parquet").toFile();
    writeEncoded(encoded, rows, Set.of(), settings);

    assertThat(read(encoded)).containsExactlyElementsOf(rows);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(encoded.toPath()))) {
      assertThat(reader.getFooter().getBlocks().get(0).getColumns())
          .allMatch(chunk -> chunk.getCodec() == codec);
    }
  }

  @Test
  void aZstdLevelThatIsNotANumberIsNamedInTheError() {
    ParquetWriteSettings settings =
        new ParquetWriteSettings(
            CompressionCodecName.ZSTD, Optional.of("fast"), 1L << 20, 4096, 1000, 2048, false);
    File encoded = directory.resolve("bad-level.parquet").toFile();
    assertThatThrownBy(() -> writeEncoded(encoded, List.of(), Set.of(), settings))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid zstd level 'fast' in table property write.parquet.compression-level: use a whole number");
  }

  private static List<Record> rows(Random random) {
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < ROWS; index++) {
      Record row = GenericRecord.create(SCHEMA);
      row.setField(
          "id",
          switch (index) {
            case 17 -> Long.MIN_VALUE;
            case 18 -> Long.MAX_VALUE;
            default -> (long) index - 30_000;
          });
      // rows 20,000 to 23,999 are null in small_int: whole pages of nulls
      boolean nullStretch = index >= 20_000 && index < 24_000;
      row.setField("small_int", nullStretch ? null : nullOr(random, random.nextInt(11) - 5));
      // 40 new values every 1,000 rows: the dictionary passes 2 KB (256 longs) after ~6,400 rows
      row.setField(
          "drifting_long", nullOr(random, (long) random.nextInt(40) + (index / 1000) * 40L));
      row.setField("ratio", nullOr(random, floatValue(random)));
      row.setField("amount", nullOr(random, doubleValue(random)));
      row.setField(
          "day", nullOr(random, LocalDate.of(2026, 1, 1).plusDays(random.nextInt(400) - 200)));
      row.setField(
          "time_of_day",
          nullOr(random, LocalTime.ofNanoOfDay(random.nextLong(86_400_000_000L) * 1000)));
      long micros = random.nextLong(4_000_000_000_000_000L) - 2_000_000_000_000_000L;
      row.setField(
          "ts",
          nullOr(
              random,
              OffsetDateTime.ofInstant(
                  java.time.Instant.EPOCH.plusNanos(micros * 1000), ZoneOffset.UTC)));
      row.setField(
          "local_ts",
          nullOr(
              random,
              LocalDateTime.ofEpochSecond(micros / 1_000_000, 0, ZoneOffset.UTC).withNano(0)));
      row.setField("country", nullOr(random, COUNTRIES.get(random.nextInt(COUNTRIES.size()))));
      row.setField("unique_text", nullOr(random, uniqueText(random, index)));
      row.setField("payload", nullOr(random, ByteBuffer.wrap(bytes(random, random.nextInt(41)))));
      row.setField("flag", nullOr(random, random.nextBoolean()));
      row.setField(
          "price", nullOr(random, BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2)));
      row.setField("required_text", "r" + (index % 97));
      // one dictionary entry: ids of bit width 0
      row.setField("constant", "same");
      row.setField("always_null", null);
      // a few values larger than a whole page (4 KB)
      row.setField("huge_text", index % 5_000 == 1 ? "h".repeat(10_000) + index : null);
      rows.add(row);
    }
    return rows;
  }

  private static float floatValue(Random random) {
    return switch (random.nextInt(50)) {
      case 0 -> -0.0f;
      case 1 -> 0.0f;
      case 2 -> Float.NEGATIVE_INFINITY;
      case 3 -> Float.MAX_VALUE;
      default -> (random.nextFloat() - 0.5f) * 1000;
    };
  }

  private static double doubleValue(Random random) {
    return switch (random.nextInt(50)) {
      case 0 -> -0.0;
      case 1 -> 0.0;
      case 2 -> Double.POSITIVE_INFINITY;
      case 3 -> -Double.MAX_VALUE;
      default -> Math.round(random.nextDouble() * 100_000) / 100.0;
    };
  }

  private static String uniqueText(Random random, int index) {
    String text = "u-" + index + "-" + Long.toHexString(random.nextLong());
    return random.nextInt(100) == 0 ? text + "x".repeat(300) : text;
  }

  private void writeEncoded(File file, List<Record> rows, Set<String> plainColumns)
      throws IOException {
    writeEncoded(file, rows, plainColumns, SETTINGS);
  }

  private void writeEncoded(
      File file, List<Record> rows, Set<String> plainColumns, ParquetWriteSettings settings)
      throws IOException {
    List<ColumnTransfer> transfers =
        SCHEMA.columns().stream().map(field -> ColumnTransfers.forType(field.type())).toList();
    try (BufferAllocator allocator = new RootAllocator(256L << 20);
        ArrowParquetFileWriter writer =
            new ArrowParquetFileWriter(
                SCHEMA, settings, Files.localOutput(file), allocator, plainColumns);
        VectorSchemaRoot batch = VectorSchemaRoot.create(ArrowSchemas.toArrow(SCHEMA), allocator)) {
      for (int start = 0; start < rows.size(); start += BATCH_ROWS) {
        int count = Math.min(BATCH_ROWS, rows.size() - start);
        batch.allocateNew();
        for (int column = 0; column < transfers.size(); column++) {
          FieldVector vector = batch.getVector(column);
          String name = SCHEMA.columns().get(column).name();
          for (int row = 0; row < count; row++) {
            Object value = rows.get(start + row).getField(name);
            if (value == null) {
              vector.setNull(row);
            } else {
              transfers.get(column).set(vector, row, value);
            }
          }
          vector.setValueCount(count);
        }
        batch.setRowCount(count);
        writer.write(batch);
      }
    }
  }

  private static void writeWithParquetJava(File file, List<Record> rows) throws IOException {
    try (FileAppender<Record> appender =
        Parquet.write(Files.localOutput(file))
            .schema(SCHEMA)
            .createWriterFunc(
                (icebergSchema, messageType) ->
                    GenericParquetWriter.create(icebergSchema, messageType))
            .setAll(WRITER_PROPERTIES)
            .build()) {
      appender.addAll(rows);
    }
  }

  private static List<Record> read(File file) {
    return ParquetRecords.read(file, SCHEMA);
  }

  private static void assertSameMetrics(File encoded, File reference) {
    MetricsConfig config = MetricsConfig.getDefault();
    Metrics actual = ParquetUtil.fileMetrics(Files.localInput(encoded), config);
    Metrics expected = ParquetUtil.fileMetrics(Files.localInput(reference), config);
    assertThat(actual.recordCount()).isEqualTo(expected.recordCount()).isEqualTo(ROWS);
    assertThat(actual.valueCounts()).isEqualTo(expected.valueCounts());
    assertThat(actual.nullValueCounts()).isEqualTo(expected.nullValueCounts());
    assertThat(hex(actual.lowerBounds())).isEqualTo(hex(expected.lowerBounds()));
    assertThat(hex(actual.upperBounds())).isEqualTo(hex(expected.upperBounds()));
  }

  private static Map<Integer, String> hex(Map<Integer, ByteBuffer> bounds) {
    return bounds.entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                entry -> {
                  ByteBuffer buffer = entry.getValue().duplicate();
                  byte[] bytes = new byte[buffer.remaining()];
                  buffer.get(bytes);
                  return HexFormat.of().formatHex(bytes);
                }));
  }

  private static List<ColumnChunkMetaData> chunks(List<BlockMetaData> rowGroups, String column) {
    return rowGroups.stream()
        .flatMap(rowGroup -> rowGroup.getColumns().stream())
        .filter(chunk -> chunk.getPath().toDotString().equals(column))
        .toList();
  }

  /** The pages' null counts add up to the chunk's, and its min and max are among the pages'. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void assertColumnIndexAgrees(ParquetFileReader reader, ColumnChunkMetaData chunk)
      throws IOException {
    ColumnIndex index = reader.readColumnIndex(chunk);
    String column = chunk.getPath().toDotString();
    assertThat(index).as("column index of %s", column).isNotNull();
    if (!chunk.getStatistics().isNumNullsSet()) {
      // parquet-java leaves out chunk statistics whose min or max passes 4 KB (huge_text)
      return;
    }
    assertThat(index.getNullCounts().stream().mapToLong(Long::longValue).sum())
        .as("null count of %s", column)
        .isEqualTo(chunk.getStatistics().getNumNulls());
    if (!chunk.getStatistics().hasNonNullValue()) {
      return;
    }
    PrimitiveType type = chunk.getPrimitiveType();
    PrimitiveComparator comparator = type.comparator();
    List<ByteBuffer> minimums = new ArrayList<>();
    List<ByteBuffer> maximums = new ArrayList<>();
    for (int page = 0; page < index.getNullPages().size(); page++) {
      if (!index.getNullPages().get(page)) {
        minimums.add(index.getMinValues().get(page));
        maximums.add(index.getMaxValues().get(page));
      }
    }
    org.apache.parquet.column.statistics.Statistics<?> statistics = chunk.getStatistics();
    ByteBuffer chunkMin = ByteBuffer.wrap(statistics.getMinBytes());
    ByteBuffer chunkMax = ByteBuffer.wrap(statistics.getMaxBytes());
    if (type.getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
      assertThat(minimums).as("page minimums of %s", column).contains(chunkMin);
      assertThat(maximums).as("page maximums of %s", column).contains(chunkMax);
    } else {
      // the column index truncates long strings; the chunk's own min and max are exact
      assertThat(minimums.stream().anyMatch(min -> startsWith(chunkMin, min)))
          .as("page minimums of %s", column)
          .isTrue();
      assertThat(
              maximums.stream()
                  .anyMatch(
                      max ->
                          startsWith(chunkMax, max)
                              || comparator.compare(
                                      org.apache.parquet.io.api.Binary.fromConstantByteBuffer(max),
                                      org.apache.parquet.io.api.Binary.fromConstantByteBuffer(
                                          chunkMax))
                                  >= 0))
          .as("page maximums of %s", column)
          .isTrue();
    }
  }

  /**
   * Each page's min and max in the column index are the min and max of that page's own rows (a
   * dictionary-encoded column's page bounds come from the page's distinct dictionary values).
   */
  private static void assertPageBoundsAreThePagesOwn(
      ParquetFileReader reader, List<BlockMetaData> rowGroups, String column, List<Record> rows)
      throws IOException {
    Comparator<String> unsignedBytes =
        Comparator.comparing(
            value -> value.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
    long firstRowOfGroup = 0;
    for (BlockMetaData rowGroup : rowGroups) {
      ColumnChunkMetaData chunk = chunks(List.of(rowGroup), column).get(0);
      ColumnIndex index = reader.readColumnIndex(chunk);
      OffsetIndex pages = reader.readOffsetIndex(chunk);
      for (int page = 0; page < pages.getPageCount(); page++) {
        int from = (int) (firstRowOfGroup + pages.getFirstRowIndex(page));
        int to = (int) (firstRowOfGroup + pages.getLastRowIndex(page, rowGroup.getRowCount()) + 1);
        List<String> values =
            rows.subList(from, to).stream()
                .map(row -> (String) row.getField(column))
                .filter(Objects::nonNull)
                .sorted(unsignedBytes)
                .toList();
        String where = column + " rows " + from + " to " + to;
        if (values.isEmpty()) {
          assertThat(index.getNullPages().get(page)).as("null page, %s", where).isTrue();
          continue;
        }
        assertThat(StandardCharsets.UTF_8.decode(index.getMinValues().get(page)).toString())
            .as("min, %s", where)
            .isEqualTo(values.get(0));
        assertThat(StandardCharsets.UTF_8.decode(index.getMaxValues().get(page)).toString())
            .as("max, %s", where)
            .isEqualTo(values.get(values.size() - 1));
      }
      firstRowOfGroup += rowGroup.getRowCount();
    }
  }

  private static boolean startsWith(ByteBuffer value, ByteBuffer prefix) {
    return value.remaining() >= prefix.remaining()
        && value.duplicate().limit(value.position() + prefix.remaining()).equals(prefix);
  }
}
