package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.dataFileCount;
import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.rewrite.copy.ParquetFooterReader;
import dev.lakeops.spark.LocalSpark.Fingerprint;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables written by Spark's Iceberg writer, one {@code INSERT} per commit, compacted by binpack
 * through the core: the files merge without decoding although Spark writes columns required that
 * the table has optional, and although the codec, the page version, the page size and the column
 * statistics changed between commits. Spark reads the merged files back.
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
    assertThat(repetitionsOf(iceberg, "id"))
        .as("Spark writes id required unless a commit has a null id")
        .containsExactly("OPTIONAL", "REQUIRED");

    CompactionResult result = compactKeepingRows(table, iceberg);

    assertThat(repetitionsOf(reload(iceberg), "id")).containsExactly("OPTIONAL");
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
    assertThat(codecsOf(iceberg)).containsExactly("SNAPPY", "ZSTD");

    CompactionResult result = compactKeepingRows(table, iceberg);

    Table merged = reload(iceberg);
    assertThat(repetitionsOf(merged, "id")).containsExactly("REQUIRED");
    int noteId = merged.schema().findField("note").fieldId();
    int idId = merged.schema().findField("id").fieldId();
    for (DataFile file : dataFiles(merged)) {
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

  /** The Parquet repetitions of a top-level column across the table's data files. */
  private static Set<String> repetitionsOf(Table table, String column) {
    Set<String> repetitions = new TreeSet<>();
    for (DataFile file : dataFiles(table)) {
      ParquetMetadata footer =
          new ParquetFooterReader().read(table.io().newInputFile(file)).footer();
      repetitions.add(footer.getFileMetaData().getSchema().getType(column).getRepetition().name());
    }
    return repetitions;
  }

  private static Set<String> codecsOf(Table table) {
    Set<String> codecs = new TreeSet<>();
    for (DataFile file : dataFiles(table)) {
      ParquetMetadata footer =
          new ParquetFooterReader().read(table.io().newInputFile(file)).footer();
      for (BlockMetaData block : footer.getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          codecs.add(chunk.getCodec().name());
        }
      }
    }
    return codecs;
  }

  private static List<DataFile> dataFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
