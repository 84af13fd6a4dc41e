package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.spark.LocalSpark.Fingerprint;
import dev.lakeops.testing.ParquetFooters;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables written by Spark's Iceberg writer, one {@code INSERT} per commit, compacted by binpack
 * through the core: the files merge without decoding although Spark writes columns required that
 * the table has optional, and although the codec, the page version, the page size and the column
 * statistics changed between commits, and with files of Iceberg's generic Parquet writer in the
 * same group. Spark reads the merged files back.
 */
class SparkWrittenFilesCompactionTest {
  private static final String ROWS =
      "SELECT id,"
          + " CASE WHEN id % 11 = 0 THEN NULL ELSE element_at(array('NL', 'DE', 'FR', 'BE'), cast(id % 4 + 1 AS INT)) END,"
          + " cast(id % 1000 / 10.0 AS DECIMAL(10, 2)),"
          + " timestamp_seconds(1700000000 + id),"
          + " id % 2 = 0,"
          + " CASE WHEN id % 5 = 0 THEN NULL ELSE id * 0.5 END,"
          + " CASE WHEN id % 3 = 0 THEN NULL ELSE concat('note-', id) END"
          + " FROM range(";

  @TempDir static Path warehouse;
  private static SparkSession spark;
  private static HadoopCatalog catalog;

  @BeforeAll
  static void startSpark() {
    spark = LocalSpark.start(warehouse);
    spark.sql("CREATE NAMESPACE IF NOT EXISTS cat.db");
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @AfterAll
  static void stopSpark() throws IOException {
    if (spark != null) {
      spark.stop();
    }
    if (catalog != null) {
      catalog.close();
    }
  }

  @Test
  void mergesFilesWithColumnsRequiredInSomeFilesWithoutDecoding() {
    String table = createTable("required_ids", "zstd");
    for (int commit = 0; commit < 5; commit++) {
      insert(table, commit * 2_000, (commit + 1) * 2_000);
    }
    spark.sql(
        "INSERT INTO "
            + table
            + " VALUES (NULL, 'NL', 1.50, timestamp_seconds(1700000000), true, 2.5, 'null id')");
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "required_ids"));
    assertThat(ParquetFooters.repetitions(iceberg, "id"))
        .as("Spark writes id required unless a commit has a null id")
        .containsExactly("OPTIONAL", "REQUIRED");

    CompactionResult result = compactKeepingRows(table, iceberg);

    assertThat(ParquetFooters.repetitions(reload(iceberg), "id")).containsExactly("OPTIONAL");
    assertThat(spark.sql("SELECT count(*) FROM " + table + " WHERE id IS NULL").first().getLong(0))
        .isEqualTo(1);
    assertThat(
            spark
                .sql("SELECT count(*) FROM " + table + " WHERE id BETWEEN 2500 AND 3499")
                .first()
                .getLong(0))
        .isEqualTo(1_000);
    assertThat(result.outputFiles()).isEqualTo(1);
  }

  @Test
  void mergesFilesAcrossCodecPageVersionPageSizeAndStatisticsChangesWithoutDecoding() {
    String table = createTable("changing_writes", "snappy");
    // Iceberg's vectorized Spark reader cannot read the RLE boolean pages its own v2 writer writes
    // (before and after any compaction): read row by row
    spark.sql(
        "ALTER TABLE "
            + table
            + " SET TBLPROPERTIES ('read.parquet.vectorization.enabled' = 'false')");
    insert(table, 0, 3_000);
    insert(table, 3_000, 6_000);
    spark.sql(
        "ALTER TABLE "
            + table
            + " SET TBLPROPERTIES ("
            + "'write.parquet.compression-codec' = 'zstd', 'write.parquet.page-version' = 'v2',"
            + " 'write.parquet.page-row-limit' = '500')");
    insert(table, 6_000, 9_000);
    insert(table, 9_000, 12_000);
    spark.sql(
        "ALTER TABLE "
            + table
            + " SET TBLPROPERTIES ("
            + "'write.parquet.page-version' = 'v1', 'write.parquet.stats-enabled.column.note' = 'false',"
            + " 'write.parquet.dict-size-bytes' = '256')");
    insert(table, 12_000, 15_000);
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "changing_writes"));
    assertThat(ParquetFooters.codecs(iceberg)).containsExactly("SNAPPY", "ZSTD");

    CompactionResult result = compactKeepingRows(table, iceberg);

    Table merged = reload(iceberg);
    assertThat(ParquetFooters.repetitions(merged, "id")).containsExactly("REQUIRED");
    int noteId = merged.schema().findField("note").fieldId();
    int idId = merged.schema().findField("id").fieldId();
    for (DataFile file : ParquetFooters.dataFiles(merged)) {
      assertThat(file.lowerBounds())
          .as("one input had no statistics for note")
          .doesNotContainKey(noteId);
      assertThat(file.lowerBounds()).containsKey(idId);
      assertThat(file.nullValueCounts().get(idId)).isZero();
    }
    assertThat(
            spark
                .sql("SELECT count(*) FROM " + table + " WHERE id >= 11000 AND id < 13000")
                .first()
                .getLong(0))
        .isEqualTo(2_000);
    assertThat(
            spark
                .sql("SELECT count(*) FROM " + table + " WHERE note = 'note-14000'")
                .first()
                .getLong(0))
        .isEqualTo(1);
    assertThat(result.outputFiles()).isEqualTo(1);
  }

  @Test
  void mergesSparkAndIcebergGenericWriterFilesInOneGroupWithoutDecoding() {
    String table = createTable("mixed_writers", "zstd");
    insert(table, 0, 2_000);
    insert(table, 2_000, 4_000);
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "mixed_writers"));
    TableFiles.append(iceberg, null, genericRows(iceberg, 4_000, 6_000));
    TableFiles.append(iceberg, null, genericRows(iceberg, 6_000, 8_000));
    spark.sql("REFRESH TABLE " + table);
    String expected = createTable("mixed_writers_expected", "zstd");
    insert(expected, 0, 8_000);
    assertThat(fingerprint(spark, table))
        .as("the generic writer's rows are the rows Spark writes")
        .isEqualTo(fingerprint(spark, expected));
    assertThat(ParquetFooters.repetitions(reload(iceberg), "id"))
        .as("Spark writes id required, Iceberg's generic writer as the table has it")
        .containsExactly("OPTIONAL", "REQUIRED");

    CompactionResult result = compactKeepingRows(table, iceberg);

    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(ParquetFooters.repetitions(reload(iceberg), "id")).containsExactly("OPTIONAL");
    assertThat(fingerprint(spark, table)).isEqualTo(fingerprint(spark, expected));
  }

  @Test
  void leavesOutRowsThatSparkDeletedWithoutDecoding() {
    String table = createTable("spark_deletes", "zstd");
    spark.sql(
        "ALTER TABLE "
            + table
            + " SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read',"
            + " 'write.parquet.page-row-limit' = '500')");
    for (int commit = 0; commit < 5; commit++) {
      insert(table, commit * 2_000, (commit + 1) * 2_000);
    }
    spark.sql("DELETE FROM " + table + " WHERE id % 7 = 3");
    spark.sql("DELETE FROM " + table + " WHERE id BETWEEN 2500 AND 3600");
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "spark_deletes"));
    long deleteFiles = deleteFileCount(table);
    assertThat(deleteFiles).isPositive();

    CompactionResult result = compactKeepingRows(table, iceberg);

    assertThat(result.removedDeleteFiles()).isEqualTo(deleteFiles);
    assertThat(deleteFileCount(table)).isZero();
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(spark.sql("SELECT count(*) FROM " + table).first().getLong(0))
        .isEqualTo(countLive(0, 10_000));
    assertThat(
            spark
                .sql("SELECT count(*) FROM " + table + " WHERE id BETWEEN 2400 AND 3700")
                .first()
                .getLong(0))
        .isEqualTo(countLive(2_400, 3_701));
  }

  @Test
  void deletesInPagesThatCannotLoseRowsWithoutDecodingAreDecoded() {
    String table = createTable("v2_page_deletes", "zstd");
    // Iceberg's v2 page writer stores booleans RLE-encoded, which cannot lose rows undecoded
    spark.sql(
        "ALTER TABLE "
            + table
            + " SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read',"
            + " 'write.parquet.page-version' = 'v2', 'read.parquet.vectorization.enabled' = 'false')");
    for (int commit = 0; commit < 5; commit++) {
      insert(table, commit * 2_000, (commit + 1) * 2_000);
    }
    spark.sql("DELETE FROM " + table + " WHERE id % 7 = 3");
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "v2_page_deletes"));
    Fingerprint sparkBefore = fingerprint(spark, table);
    RowFingerprint before = RowFingerprint.of(iceberg);

    CompactionResult result = new TableCompactor().compact(iceberg, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEqualTo(Map.of("deletes in encodings that decode", 1));
    assertThat(result.decodedBytes()).isEqualTo(result.inputBytes());
    assertThat(RowFingerprint.of(reload(iceberg))).isEqualTo(before);
    spark.sql("REFRESH TABLE " + table);
    assertThat(fingerprint(spark, table)).isEqualTo(sparkBefore);
    assertThat(deleteFileCount(table)).isZero();
  }

  /** Rows with ids in {@code [from, to)} that the two DELETEs above leave. */
  private static long countLive(long from, long to) {
    long live = 0;
    for (long id = from; id < to; id++) {
      if (id % 7 != 3 && (id < 2500 || id > 3600)) {
        live++;
      }
    }
    return live;
  }

  private static long deleteFileCount(String table) {
    spark.sql("REFRESH TABLE " + table);
    return spark.sql("SELECT count(*) FROM " + table + ".delete_files").first().getLong(0);
  }

  private static String createTable(String name, String codec) {
    String table = LocalSpark.ICEBERG_CATALOG + ".db." + name;
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING, amount DECIMAL(10, 2), event_time TIMESTAMP,"
            + " flag BOOLEAN, score DOUBLE, note STRING) USING iceberg"
            + " TBLPROPERTIES ('format-version' = '2', 'write.parquet.compression-codec' = '"
            + codec
            + "')");
    return table;
  }

  private static void insert(String table, long from, long to) {
    spark.sql("INSERT INTO " + table + " " + ROWS + from + ", " + to + ")");
  }

  /** The rows {@link #insert} writes for ids {@code from} to {@code to - 1}, as records. */
  private static List<Record> genericRows(Table table, long from, long to) {
    List<Record> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", id);
      row.setField(
          "country", id % 11 == 0 ? null : List.of("NL", "DE", "FR", "BE").get((int) (id % 4)));
      row.setField("amount", BigDecimal.valueOf(id % 1000, 1).setScale(2));
      row.setField(
          "event_time",
          OffsetDateTime.ofInstant(Instant.ofEpochSecond(1_700_000_000L + id), ZoneOffset.UTC));
      row.setField("flag", id % 2 == 0);
      row.setField("score", id % 5 == 0 ? null : id * 0.5);
      row.setField("note", id % 3 == 0 ? null : "note-" + id);
      rows.add(row);
    }
    return rows;
  }

  /** Compacts through the core and checks rows (core reader and Spark) and the decode-free path. */
  private static CompactionResult compactKeepingRows(String table, Table iceberg) {
    Fingerprint sparkBefore = fingerprint(spark, table);
    RowFingerprint before = RowFingerprint.of(iceberg);
    long filesBefore = dataFileCount(spark, table);

    CompactionResult result = new TableCompactor().compact(iceberg, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.inputFiles()).isEqualTo(filesBefore);
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    assertThat(RowFingerprint.of(reload(iceberg))).isEqualTo(before);
    spark.sql("REFRESH TABLE " + table);
    assertThat(dataFileCount(spark, table)).isEqualTo(result.outputFiles());
    assertThat(fingerprint(spark, table)).isEqualTo(sparkBefore);
    return result;
  }

  private static Table reload(Table table) {
    table.refresh();
    return table;
  }
}
