package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.copy.FallbackReasons;
import dev.lakeops.testing.ParquetFooters;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.trino.fs.LocalSchemeFileIO;
import dev.lakeops.verify.RowFingerprint;
import io.trino.testing.MaterializedResult;
import io.trino.testing.StandaloneQueryRunner;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Tables written by Trino's Iceberg connector, one {@code INSERT} per commit, compacted by binpack
 * through the core: Trino's Parquet writer's files merge without decoding, also across a change of
 * the table's {@code compression_codec} (with and without {@code rewrite-codec}) and with files of
 * Iceberg's generic Parquet writer in the same group, and Trino reads the merged file back with the
 * same rows (count and checksums over every column, before and after).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTrinoWrittenFilesCompaction {
  private static final String TYPES_CHECKSUM =
      "SELECT count(*), sum(id), checksum(small_amount), checksum(big_amount), checksum(day),"
          + " checksum(moment), checksum(clock), checksum(ratio), checksum(quantity), checksum(key),"
          + " checksum(bytes) FROM %s";
  private static final String NESTED_CHECKSUM =
      "SELECT count(*), sum(id), checksum(tags), checksum(point), checksum(attributes) FROM %s";
  private static final String CHECKSUM =
      "SELECT count(*), sum(id), sum(amount), checksum(country), checksum(event_time), checksum(flag),"
          + " checksum(score), checksum(note) FROM %s";

  private Path directory;
  private StandaloneQueryRunner runner;
  private JdbcCatalog catalog;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-written");
    runner = LakeOpsQueryRunner.create(directory, List.of());
    catalog = new JdbcCatalog();
    catalog.initialize(
        LakeOpsQueryRunner.JDBC_CATALOG_NAME,
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + directory.resolve("catalog.db"),
            CatalogProperties.WAREHOUSE_LOCATION,
            "local:///",
            CatalogProperties.FILE_IO_IMPL,
            LocalSchemeFileIO.class.getName(),
            LocalSchemeFileIO.ROOT_PROPERTY,
            directory.resolve("warehouse").toString()));
  }

  @AfterAll
  void stopEngine() throws Exception {
    if (catalog != null) {
      catalog.close();
    }
    if (runner != null) {
      runner.close();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test
  void mergesTrinoWrittenFilesWithoutDecoding() {
    createTable("trino_events", "ZSTD");
    for (int batch = 0; batch < 6; batch++) {
      insertBatch("trino_events", batch);
    }
    Table table = load("trino_events");

    CompactionResult result =
        compactKeepingRows("trino_events", table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(6);
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_events WHERE id BETWEEN 2500 AND 3499")
                .getOnlyValue())
        .isEqualTo(1_000L);
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_events WHERE country IS NULL")
                .getOnlyValue())
        .isEqualTo(546L);
  }

  @Test
  void leavesOutRowsThatTrinoDeletedWithoutDecoding() {
    createTable("trino_deletes", "ZSTD");
    for (int batch = 0; batch < 6; batch++) {
      insertBatch("trino_deletes", batch);
    }
    runner.execute("DELETE FROM trino_deletes WHERE id % 7 = 3");
    runner.execute("DELETE FROM trino_deletes WHERE id BETWEEN 2500 AND 3600");
    long deleteFiles =
        (long)
            runner
                .execute("SELECT count(*) FROM \"trino_deletes$files\" WHERE content = 1")
                .getOnlyValue();
    assertThat(deleteFiles).isPositive();
    Table table = load("trino_deletes");
    MaterializedResult before = runner.execute(CHECKSUM.formatted("trino_deletes"));
    RowFingerprint fingerprint = fingerprintOneFileAtATime(table);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    assertThat(result.removedDeleteFiles()).isEqualTo(deleteFiles);
    assertThat(FragmentedTables.fileCount(runner, "trino_deletes"))
        .as("one data file, no delete file")
        .isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("trino_deletes"))).isEqualTo(before);
    assertThat(fingerprintOneFileAtATime(reload(table))).isEqualTo(fingerprint);
    long live = 0;
    for (long id = 2_400; id <= 3_700; id++) {
      live += id % 7 != 3 && (id < 2_500 || id > 3_600) ? 1 : 0;
    }
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_deletes WHERE id BETWEEN 2400 AND 3700")
                .getOnlyValue())
        .isEqualTo(live);
  }

  @Test
  void mergesFilesWrittenBeforeAndAfterACodecChangeWithoutDecoding() {
    createTable("trino_codecs", "SNAPPY");
    insertBatch("trino_codecs", 0);
    insertBatch("trino_codecs", 1);
    insertBatch("trino_codecs", 2);
    runner.execute("ALTER TABLE trino_codecs SET PROPERTIES compression_codec = 'ZSTD'");
    insertBatch("trino_codecs", 3);
    insertBatch("trino_codecs", 4);
    Table table = load("trino_codecs");
    assertThat(ParquetFooters.codecs(table)).containsExactly("SNAPPY", "ZSTD");

    CompactionResult result =
        compactKeepingRows("trino_codecs", table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(5);
    assertThat(ParquetFooters.codecs(reload(table)))
        .as("a chunk merged from pages in several codecs takes the table's codec")
        .containsExactly("ZSTD");
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_codecs WHERE id BETWEEN 2500 AND 3499")
                .getOnlyValue())
        .isEqualTo(1_000L);
  }

  @Test
  void rewritesEveryPageIntoTheTableCodecWhenAskedWithoutDecoding() {
    createTable("trino_rewrite_codec", "SNAPPY");
    insertBatch("trino_rewrite_codec", 0);
    insertBatch("trino_rewrite_codec", 1);
    runner.execute("ALTER TABLE trino_rewrite_codec SET PROPERTIES compression_codec = 'ZSTD'");
    insertBatch("trino_rewrite_codec", 2);
    insertBatch("trino_rewrite_codec", 3);
    insertBatch("trino_rewrite_codec", 4);
    runner.execute("ALTER TABLE trino_rewrite_codec SET PROPERTIES compression_codec = 'GZIP'");
    Table table = load("trino_rewrite_codec");
    assertThat(ParquetFooters.codecs(table)).containsExactly("SNAPPY", "ZSTD");

    CompactionResult result =
        compactKeepingRows(
            "trino_rewrite_codec",
            table,
            CompactionRequest.builder()
                .options(Map.of(RewriteOptions.REWRITE_CODEC, "true"))
                .build());

    assertThat(result.inputFiles()).isEqualTo(5);
    assertThat(ParquetFooters.codecs(reload(table))).containsExactly("GZIP");
  }

  @Test
  void mergesTrinoAndIcebergGenericWriterFilesInOneGroupWithoutDecoding() {
    createTable("trino_mixed", "ZSTD");
    insertBatch("trino_mixed", 0);
    insertBatch("trino_mixed", 1);
    insertBatch("trino_mixed", 2);
    Table table = load("trino_mixed");
    TableFiles.append(table, null, genericRows(table, 3_000, 4_000));
    TableFiles.append(table, null, genericRows(table, 4_000, 5_000));
    assertThat(ParquetFooters.createdBy(reload(table)))
        .as("Trino's Parquet writer and parquet-java (Iceberg's generic writer)")
        .hasSize(2);

    CompactionResult result = compactKeepingRows("trino_mixed", table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(5);
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_mixed WHERE id BETWEEN 2500 AND 3499")
                .getOnlyValue())
        .isEqualTo(1_000L);
    createTable("trino_mixed_expected", "ZSTD");
    insertBatch("trino_mixed_expected", 3);
    insertBatch("trino_mixed_expected", 4);
    assertThat(runner.execute(CHECKSUM.formatted("trino_mixed WHERE id >= 3000")))
        .as("the generic writer's rows are the rows Trino writes")
        .isEqualTo(runner.execute(CHECKSUM.formatted("trino_mixed_expected")));
  }

  @Test
  void mergesTrinoAndGenericWriterFilesOfEveryPrimitiveTypeWithoutDecoding() {
    createTypesTable("trino_mixed_types");
    insertTypesBatch("trino_mixed_types", 0);
    insertTypesBatch("trino_mixed_types", 1);
    insertTypesBatch("trino_mixed_types", 2);
    Table table = load("trino_mixed_types");
    TableFiles.append(table, null, genericTypesRows(table, 3_000, 4_000));
    TableFiles.append(table, null, genericTypesRows(table, 4_000, 5_000));
    createTypesTable("trino_mixed_types_expected");
    for (int batch = 0; batch < 5; batch++) {
      insertTypesBatch("trino_mixed_types_expected", batch);
    }
    assertThat(runner.execute(TYPES_CHECKSUM.formatted("trino_mixed_types")))
        .as("the generic writer's rows are the rows Trino writes")
        .isEqualTo(runner.execute(TYPES_CHECKSUM.formatted("trino_mixed_types_expected")));

    CompactionResult result =
        compactKeepingRows("trino_mixed_types", TYPES_CHECKSUM, table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(5);
  }

  private void createTypesTable(String name) {
    runner.execute(
        "CREATE TABLE "
            + name
            + " (id BIGINT, small_amount DECIMAL(5, 2), big_amount DECIMAL(30, 4), day DATE,"
            + " moment TIMESTAMP(6) WITH TIME ZONE, clock TIME(6), ratio REAL, quantity INTEGER,"
            + " key UUID, bytes VARBINARY) WITH (format = 'PARQUET')");
  }

  /** Rows {@code batch * 1000} to {@code batch * 1000 + 999} of every primitive type, one file. */
  private void insertTypesBatch(String table, int batch) {
    runner.execute(
        "INSERT INTO "
            + table
            + " SELECT n, CAST(n % 100 AS DECIMAL(5, 2)), IF(n % 7 = 0, NULL, CAST(n AS DECIMAL(30, 4))),"
            + " DATE '2024-01-01' + n * INTERVAL '1' DAY,"
            + " TIMESTAMP '2024-01-01 00:00:00.000000 UTC' + n * INTERVAL '1' SECOND,"
            + " TIME '00:00:00.000000' + n * INTERVAL '1' SECOND, CAST(n AS REAL) / 4, CAST(n AS INTEGER),"
            + " CAST(format('00000000-0000-0000-0000-%012d', n) AS UUID), to_utf8('b' || CAST(n AS VARCHAR))"
            + " FROM UNNEST(sequence("
            + batch * 1_000
            + ", "
            + (batch * 1_000 + 999)
            + ")) AS t(n)");
  }

  /** The rows {@link #insertTypesBatch} writes for ids {@code from} to {@code to - 1}. */
  private static List<Record> genericTypesRows(Table table, long from, long to) {
    List<Record> rows = new ArrayList<>();
    for (long n = from; n < to; n++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", n);
      row.setField("small_amount", BigDecimal.valueOf(n % 100).setScale(2));
      row.setField("big_amount", n % 7 == 0 ? null : BigDecimal.valueOf(n).setScale(4));
      row.setField("day", LocalDate.of(2024, 1, 1).plusDays(n));
      row.setField(
          "moment", OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(n));
      row.setField("clock", LocalTime.ofSecondOfDay(n));
      row.setField("ratio", n / 4f);
      row.setField("quantity", (int) n);
      row.setField("key", UUID.fromString("00000000-0000-0000-0000-%012d".formatted(n)));
      row.setField("bytes", ByteBuffer.wrap(("b" + n).getBytes(StandardCharsets.UTF_8)));
      rows.add(row);
    }
    return rows;
  }

  @Test
  void mergesTrinoAndGenericWriterFilesWithNestedColumnsWithoutDecoding() {
    createNestedTable("trino_mixed_nested");
    insertNestedBatch("trino_mixed_nested", 0);
    insertNestedBatch("trino_mixed_nested", 1);
    insertNestedBatch("trino_mixed_nested", 2);
    Table table = load("trino_mixed_nested");
    TableFiles.append(table, null, genericNestedRows(table, 3_000, 4_000));
    TableFiles.append(table, null, genericNestedRows(table, 4_000, 5_000));
    createNestedTable("trino_mixed_nested_expected");
    for (int batch = 0; batch < 5; batch++) {
      insertNestedBatch("trino_mixed_nested_expected", batch);
    }
    assertThat(runner.execute(NESTED_CHECKSUM.formatted("trino_mixed_nested")))
        .as("the generic writer's rows are the rows Trino writes")
        .isEqualTo(runner.execute(NESTED_CHECKSUM.formatted("trino_mixed_nested_expected")));

    CompactionResult result =
        compactKeepingRows(
            "trino_mixed_nested", NESTED_CHECKSUM, table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(5);
  }

  private void createNestedTable(String name) {
    runner.execute(
        "CREATE TABLE "
            + name
            + " (id BIGINT, tags ARRAY(VARCHAR), point ROW(x INTEGER, label VARCHAR),"
            + " attributes MAP(VARCHAR, BIGINT)) WITH (format = 'PARQUET')");
  }

  /** Rows {@code batch * 1000} to {@code batch * 1000 + 999} with nested columns, one file. */
  private void insertNestedBatch(String table, int batch) {
    runner.execute(
        "INSERT INTO "
            + table
            + " SELECT n, IF(n % 5 = 0, NULL, ARRAY['a' || CAST(n AS VARCHAR), IF(n % 2 = 0, NULL, 'b')]),"
            + " IF(n % 7 = 0, NULL, CAST(ROW(CAST(n AS INTEGER), IF(n % 3 = 0, NULL, 'p' || CAST(n AS VARCHAR)))"
            + " AS ROW(x INTEGER, label VARCHAR))),"
            + " IF(n % 11 = 0, NULL, MAP(ARRAY['k', 'm'], ARRAY[n, IF(n % 2 = 0, NULL, n * 2)]))"
            + " FROM UNNEST(sequence("
            + batch * 1_000
            + ", "
            + (batch * 1_000 + 999)
            + ")) AS t(n)");
  }

  /** The rows {@link #insertNestedBatch} writes for ids {@code from} to {@code to - 1}. */
  private static List<Record> genericNestedRows(Table table, long from, long to) {
    Types.StructType pointType = table.schema().findType("point").asStructType();
    List<Record> rows = new ArrayList<>();
    for (long n = from; n < to; n++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", n);
      row.setField("tags", n % 5 == 0 ? null : Arrays.asList("a" + n, n % 2 == 0 ? null : "b"));
      if (n % 7 != 0) {
        GenericRecord point = GenericRecord.create(pointType);
        point.setField("x", (int) n);
        point.setField("label", n % 3 == 0 ? null : "p" + n);
        row.setField("point", point);
      }
      if (n % 11 != 0) {
        Map<String, Long> attributes = new LinkedHashMap<>();
        attributes.put("k", n);
        attributes.put("m", n % 2 == 0 ? null : n * 2);
        row.setField("attributes", attributes);
      }
      rows.add(row);
    }
    return rows;
  }

  @Test
  void decodesTrinoAndGenericWriterFilesOfAPromotedColumn() {
    runner.execute(
        "CREATE TABLE trino_promoted (id BIGINT, quantity INTEGER) WITH (format = 'PARQUET')");
    for (int batch = 0; batch < 3; batch++) {
      runner.execute(
          "INSERT INTO trino_promoted SELECT n, CAST(n AS INTEGER) FROM UNNEST(sequence("
              + batch * 1_000
              + ", "
              + (batch * 1_000 + 999)
              + ")) AS t(n)");
    }
    runner.execute("ALTER TABLE trino_promoted ALTER COLUMN quantity SET DATA TYPE BIGINT");
    Table table = load("trino_promoted");
    for (long from = 3_000; from < 5_000; from += 1_000) {
      List<Record> rows = new ArrayList<>();
      for (long n = from; n < from + 1_000; n++) {
        GenericRecord row = GenericRecord.create(table.schema());
        row.setField("id", n);
        row.setField("quantity", n);
        rows.add(row);
      }
      TableFiles.append(table, null, rows);
    }
    String checksum = "SELECT count(*), sum(id), sum(quantity), checksum(quantity) FROM %s";
    MaterializedResult before = runner.execute(checksum.formatted("trino_promoted"));
    RowFingerprint fingerprint = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons())
        .as(
            "Trino's files hold quantity as INT32, the generic writer's (after the promotion) as INT64")
        .isEqualTo(Map.of(FallbackReasons.SCHEMAS_DIFFER, 1));
    assertThat(result.inputFiles()).isEqualTo(5);
    assertThat(result.decodedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.copiedBytes()).isZero();
    assertThat(FragmentedTables.fileCount(runner, "trino_promoted")).isEqualTo(1);
    assertThat(runner.execute(checksum.formatted("trino_promoted"))).isEqualTo(before);
    assertThat(RowFingerprint.of(reload(table))).isEqualTo(fingerprint);
  }

  private void createTable(String name, String codec) {
    runner.execute(
        "CREATE TABLE "
            + name
            + " (id BIGINT, country VARCHAR, amount DECIMAL(10, 2), event_time TIMESTAMP(6),"
            + " flag BOOLEAN, score DOUBLE, note VARCHAR)"
            + " WITH (format = 'PARQUET', compression_codec = '"
            + codec
            + "')");
  }

  /** Rows {@code batch * 1000} to {@code batch * 1000 + 999}, one data file. */
  private void insertBatch(String table, int batch) {
    runner.execute(
        "INSERT INTO "
            + table
            + " SELECT n, IF(n % 11 = 0, NULL, element_at(ARRAY['NL', 'DE', 'FR'], CAST(n % 3 + 1 AS INTEGER))),"
            + " CAST(n % 1000 AS DECIMAL(10, 2)) / 10, TIMESTAMP '2024-01-01 00:00:00.000000' + n * INTERVAL '1' SECOND,"
            + " n % 2 = 0, IF(n % 5 = 0, NULL, n * 0.5), IF(n % 3 = 0, NULL, 'note ' || CAST(n AS VARCHAR))"
            + " FROM UNNEST(sequence("
            + batch * 1_000
            + ", "
            + (batch * 1_000 + 999)
            + ")) AS t(n)");
  }

  /** The rows {@link #insertBatch} writes for ids {@code from} to {@code to - 1}, as records. */
  private static List<Record> genericRows(Table table, long from, long to) {
    List<Record> rows = new ArrayList<>();
    for (long n = from; n < to; n++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", n);
      row.setField("country", n % 11 == 0 ? null : List.of("NL", "DE", "FR").get((int) (n % 3)));
      row.setField("amount", BigDecimal.valueOf(n % 1000, 1).setScale(2));
      row.setField("event_time", LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(n));
      row.setField("flag", n % 2 == 0);
      row.setField("score", n % 5 == 0 ? null : n * 0.5);
      row.setField("note", n % 3 == 0 ? null : "note " + n);
      rows.add(row);
    }
    return rows;
  }

  private static RowFingerprint fingerprintOneFileAtATime(Table table) {
    return RowFingerprint.of(table, table.currentSnapshot().snapshotId(), 1);
  }

  private Table load(String name) {
    return catalog.loadTable(TableIdentifier.of(LakeOpsQueryRunner.SCHEMA, name));
  }

  private static Table reload(Table table) {
    table.refresh();
    return table;
  }

  /**
   * Compacts through the core into one file and checks the decode-free path and the rows, as Trino
   * reads them (count and checksums over every column) and as the core reads them.
   */
  private CompactionResult compactKeepingRows(String name, Table table, CompactionRequest request) {
    return compactKeepingRows(name, CHECKSUM, table, request);
  }

  private CompactionResult compactKeepingRows(
      String name, String checksum, Table table, CompactionRequest request) {
    MaterializedResult before = runner.execute(checksum.formatted(name));
    RowFingerprint fingerprint = RowFingerprint.of(table);
    long filesBefore = FragmentedTables.fileCount(runner, name);

    CompactionResult result = new TableCompactor().compact(table, request);

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.inputFiles()).isEqualTo(filesBefore);
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    assertThat(FragmentedTables.fileCount(runner, name)).isEqualTo(1);
    assertThat(runner.execute(checksum.formatted(name))).isEqualTo(before);
    assertThat(RowFingerprint.of(reload(table))).isEqualTo(fingerprint);
    return result;
  }
}
