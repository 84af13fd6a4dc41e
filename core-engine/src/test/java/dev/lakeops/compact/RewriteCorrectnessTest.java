package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.rewrite.UnreadableDataFileException;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RewriteCorrectnessTest {
  private static final Schema SIMPLE =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "value", Types.DoubleType.get()));

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void positionAndEqualityDeletesAreAppliedAndTheDeleteFilesRemoved() {
    Table table = createTable(SIMPLE, 2);
    List<DataFile> files = appendSimpleFiles(table, 10, 100);
    TableFiles.deletePositions(table, files.get(0), 0, 1, 2, 99);
    TableFiles.deletePositions(table, files.get(3), 50);
    TableFiles.deleteEqual(table, null, "category", "c3");
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isLessThan(1000).isGreaterThan(800);
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isEqualTo(2);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    TableHealth after = TableHealthInspector.inspect(table);
    assertThat(after.dataFiles()).isEqualTo(1);
    assertThat(after.positionDeleteFiles()).isZero();
    assertThat(after.equalityDeleteFiles()).isZero();
    assertThat(after.records()).isEqualTo(before.rowCount());
    assertThat(result.removedDeleteFiles()).isEqualTo(3);
    assertThat(result.decodedBytes()).isEqualTo(result.inputBytes());
  }

  @Test
  void deletionVectorsAreAppliedOnFormatVersion3() {
    Table table = createTable(SIMPLE, 3);
    List<DataFile> files = appendSimpleFiles(table, 6, 100);
    TableFiles.deletionVector(table, files.get(1), 3, 4, 5);
    TableFiles.deletionVector(table, files.get(4), 0);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo(596);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isZero();
    assertThat(result.removedDeleteFiles()).isEqualTo(2);
  }

  @ParameterizedTest(name = "decode-free merge {0}")
  @ValueSource(booleans = {true, false})
  void evolvedSchemaReadsTheSameAfterCompaction(boolean decodeFreeMerge) {
    Schema original =
        new Schema(
            Types.NestedField.required(1, "id", Types.IntegerType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()),
            Types.NestedField.optional(3, "price", Types.FloatType.get()),
            Types.NestedField.optional(4, "amount", Types.DecimalType.of(10, 2)),
            Types.NestedField.optional(5, "dropped", Types.StringType.get()));
    Table table = createTable(original, 2);
    for (int file = 0; file < 4; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < 50; row++) {
        GenericRecord record = GenericRecord.create(table.schema());
        record.setField("id", file * 50 + row);
        record.setField("name", row % 7 == 0 ? null : "name-" + row);
        record.setField("price", row * 1.5f);
        record.setField("amount", new BigDecimal(row + ".25"));
        record.setField("dropped", "gone");
        rows.add(record);
      }
      TableFiles.append(table, null, rows);
    }
    table
        .updateSchema()
        .addColumn("extra", Types.StringType.get())
        .renameColumn("name", "title")
        .updateColumn("id", Types.LongType.get())
        .updateColumn("price", Types.DoubleType.get())
        .updateColumn("amount", Types.DecimalType.of(12, 2))
        .deleteColumn("dropped")
        .commit();
    for (int file = 0; file < 3; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < 50; row++) {
        GenericRecord record = GenericRecord.create(table.schema());
        record.setField("id", 10_000_000_000L + file * 50 + row);
        record.setField("title", "title-" + row);
        record.setField("price", row * 2.25);
        record.setField("amount", new BigDecimal("1234567890.12"));
        record.setField("extra", row % 2 == 0 ? null : "x" + row);
        rows.add(record);
      }
      TableFiles.append(table, null, rows);
    }
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .options(Map.of("decode-free-merge", String.valueOf(decodeFreeMerge)))
                    .build());

    table.refresh();
    assertThat(result.inputFiles()).isEqualTo(7);
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(before.rowCount()).isEqualTo(350);
  }

  @ParameterizedTest(name = "nested columns {0}")
  @ValueSource(booleans = {false, true})
  void everyPrimitiveTypeAndNestedTypesRoundTrip(boolean nested) {
    Table table = createTable(allTypesSchema(nested), 2);
    Random random = new Random(7);
    for (int file = 0; file < 6; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < 80; row++) {
        rows.add(allTypesRow(table.schema(), random, file * 100 + row, nested));
      }
      TableFiles.append(table, null, rows);
    }
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder().options(Map.of("decode-free-merge", "false")).build());

    table.refresh();
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    DataFile output = table.newScan().includeColumnStats().planFiles().iterator().next().file();
    assertThat(output.recordCount()).isEqualTo(480);
    assertThat(output.lowerBounds()).containsKeys(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    assertThat(output.nullValueCounts())
        .containsKeys(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
  }

  @ParameterizedTest(name = "decode-free merge {0}")
  @ValueSource(booleans = {true, false})
  void missingDataFileFailsNamingItAndLeavesTheTableUnchanged(boolean decodeFreeMerge)
      throws IOException {
    Table table = createTable(SIMPLE, 2);
    List<DataFile> files = appendSimpleFiles(table, 6, 50);
    long snapshot = table.currentSnapshot().snapshotId();
    Files.delete(Path.of(files.get(2).location()));

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(
                        table,
                        CompactionRequest.builder()
                            .options(Map.of("decode-free-merge", String.valueOf(decodeFreeMerge)))
                            .build()))
        .isInstanceOf(UnreadableDataFileException.class)
        .hasMessageStartingWith("Cannot read data file " + files.get(2).location())
        .hasMessageContaining("the table is unchanged");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(parquetFilesUnder(table)).hasSize(5);
  }

  @ParameterizedTest(name = "decode-free merge {0}")
  @ValueSource(booleans = {true, false})
  void corruptDataFileFailsNamingItAndLeavesTheTableUnchanged(boolean decodeFreeMerge)
      throws IOException {
    Table table = createTable(SIMPLE, 2);
    List<DataFile> files = appendSimpleFiles(table, 6, 50);
    long snapshot = table.currentSnapshot().snapshotId();
    try (RandomAccessFile file = new RandomAccessFile(files.get(4).location(), "rw")) {
      file.seek(file.length() - 12);
      file.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    }

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(
                        table,
                        CompactionRequest.builder()
                            .options(Map.of("decode-free-merge", String.valueOf(decodeFreeMerge)))
                            .build()))
        .isInstanceOf(UnreadableDataFileException.class)
        .hasMessageStartingWith("Cannot read data file " + files.get(4).location());
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(parquetFilesUnder(table)).hasSize(6);
  }

  private Table createTable(Schema schema, int formatVersion) {
    return catalog.createTable(
        TableIdentifier.of("db", "t"),
        schema,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
  }

  private static List<DataFile> appendSimpleFiles(Table table, int files, int rowsPerFile) {
    List<DataFile> written = new ArrayList<>();
    for (int file = 0; file < files; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < rowsPerFile; row++) {
        GenericRecord record = GenericRecord.create(table.schema());
        record.setField("id", (long) file * rowsPerFile + row);
        record.setField("category", "c" + (row % 10));
        record.setField("value", row % 5 == 0 ? null : row * 0.5);
        rows.add(record);
      }
      written.add(TableFiles.append(table, null, rows));
    }
    return written;
  }

  private static List<Path> parquetFilesUnder(Table table) throws IOException {
    try (var paths = Files.walk(Path.of(table.location(), "data"))) {
      return paths.filter(path -> path.toString().endsWith(".parquet")).toList();
    }
  }

  private static Schema allTypesSchema(boolean nested) {
    List<Types.NestedField> fields =
        new ArrayList<>(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
                Types.NestedField.optional(3, "small", Types.IntegerType.get()),
                Types.NestedField.optional(4, "ratio", Types.FloatType.get()),
                Types.NestedField.optional(5, "measure", Types.DoubleType.get()),
                Types.NestedField.optional(6, "price", Types.DecimalType.of(9, 2)),
                Types.NestedField.optional(7, "total", Types.DecimalType.of(18, 4)),
                Types.NestedField.optional(8, "huge", Types.DecimalType.of(38, 10)),
                Types.NestedField.optional(9, "day", Types.DateType.get()),
                Types.NestedField.optional(10, "clock", Types.TimeType.get()),
                Types.NestedField.optional(11, "local_ts", Types.TimestampType.withoutZone()),
                Types.NestedField.optional(12, "utc_ts", Types.TimestampType.withZone()),
                Types.NestedField.optional(13, "label", Types.StringType.get()),
                Types.NestedField.optional(14, "token", Types.UUIDType.get()),
                Types.NestedField.optional(15, "digest", Types.FixedType.ofLength(8)),
                Types.NestedField.optional(16, "blob", Types.BinaryType.get())));
    if (nested) {
      fields.add(
          Types.NestedField.optional(
              17,
              "address",
              Types.StructType.of(
                  Types.NestedField.optional(18, "city", Types.StringType.get()),
                  Types.NestedField.optional(19, "zip", Types.IntegerType.get()))));
      fields.add(
          Types.NestedField.optional(
              20, "tags", Types.ListType.ofOptional(21, Types.StringType.get())));
      fields.add(
          Types.NestedField.optional(
              22,
              "scores",
              Types.MapType.ofOptional(23, 24, Types.StringType.get(), Types.DoubleType.get())));
    }
    return new Schema(fields);
  }

  private static Record allTypesRow(Schema schema, Random random, long id, boolean nested) {
    GenericRecord row = GenericRecord.create(schema);
    boolean nulls = id % 9 == 0;
    row.setField("id", id);
    row.setField("flag", nulls ? null : random.nextBoolean());
    row.setField("small", nulls ? null : random.nextInt());
    row.setField("ratio", nulls ? null : random.nextFloat());
    row.setField("measure", nulls ? null : random.nextDouble() * 1e6);
    row.setField("price", nulls ? null : BigDecimal.valueOf(random.nextInt(1_000_000), 2));
    row.setField(
        "total", nulls ? null : BigDecimal.valueOf(random.nextLong() % 100_000_000_000_000L, 4));
    row.setField("huge", nulls ? null : new BigDecimal("-1234567890123456789012345678.0123456789"));
    row.setField("day", nulls ? null : LocalDate.of(2020, 1, 1).plusDays(random.nextInt(2000)));
    row.setField(
        "clock",
        nulls ? null : LocalTime.ofNanoOfDay(random.nextInt(86_400) * 1_000_000_000L + 123_000));
    row.setField(
        "local_ts",
        nulls
            ? null
            : LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000)
                .minusSeconds(random.nextInt(1_000_000)));
    row.setField(
        "utc_ts",
        nulls
            ? null
            : OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 1000, ZoneOffset.UTC)
                .plusSeconds(random.nextInt(1_000_000)));
    row.setField("label", nulls ? null : "label-" + random.nextInt(50) + "-é✓");
    row.setField("token", nulls ? null : new UUID(random.nextLong(), random.nextLong()));
    byte[] digest = new byte[8];
    random.nextBytes(digest);
    row.setField("digest", nulls ? null : digest);
    byte[] blob = new byte[random.nextInt(20)];
    random.nextBytes(blob);
    row.setField("blob", nulls ? null : ByteBuffer.wrap(blob));
    if (nested) {
      GenericRecord address = GenericRecord.create(schema.findType("address").asStructType());
      address.setField("city", id % 4 == 0 ? null : "city" + random.nextInt(5));
      address.setField("zip", random.nextInt(99999));
      row.setField("address", nulls ? null : address);
      row.setField(
          "tags", nulls ? null : id % 5 == 0 ? List.of() : List.of("a" + random.nextInt(3), "b"));
      row.setField("scores", nulls ? null : Map.of("math", random.nextDouble(), "art", 1.0));
    }
    return row;
  }
}
