package dev.lakeops.spark;

import static dev.lakeops.spark.LocalSpark.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.rewrite.copy.FallbackReasons;
import dev.lakeops.testing.ParquetFooters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A format v3 table written by Spark (inserts, merge-on-read deletes as deletion vectors, an update
 * that carries row ids over) is compacted by the core's decode-free binpack, and the same table
 * history by Spark's own {@code rewrite_data_files}: Spark reads the same {@code _row_id} and
 * {@code _last_updated_sequence_number} for every live row before and after, in both tables, twice
 * (the second time merging a file that stores lineage with files that do not).
 */
class SparkRowLineageCompactionTest {
  private static final String ROWS =
      "SELECT id,"
          + " CASE WHEN id % 11 = 0 THEN NULL ELSE element_at(array('NL', 'DE', 'FR', 'BE'), cast(id % 4 + 1 AS INT)) END,"
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
  void binpackKeepsTheLineageSparksRewriteDataFilesKeeps() {
    String ours = createTable("lineage_ours");
    String reference = createTable("lineage_reference");
    for (String table : List.of(ours, reference)) {
      for (int commit = 0; commit < 5; commit++) {
        insert(table, commit * 2_000, (commit + 1) * 2_000);
      }
      spark.sql("DELETE FROM " + table + " WHERE id % 7 = 3");
      spark.sql("UPDATE " + table + " SET note = 'updated' WHERE id % 100 = 1");
    }
    assertThat(deleteFileCount(ours)).isPositive();
    assertThat(storedLineage(catalog.loadTable(TableIdentifier.of("db", "lineage_ours"))))
        .as("inserted files store no lineage; the update's store row ids, sequence numbers null")
        .containsExactlyInAnyOrder("none", "_row_id only");

    compactBoth(ours, reference);
    assertThat(storedLineage(catalog.loadTable(TableIdentifier.of("db", "lineage_ours"))))
        .containsExactly("both");

    for (String table : List.of(ours, reference)) {
      insert(table, 10_000, 11_000);
      insert(table, 11_000, 12_000);
      spark.sql("DELETE FROM " + table + " WHERE id BETWEEN 500 AND 700 OR id = 11500");
    }

    compactBoth(ours, reference);

    // the file Spark's rewrite wrote (lineage stored by Spark), merged by the core with a new one
    insert(reference, 12_000, 13_000);
    spark.sql("DELETE FROM " + reference + " WHERE id % 13 = 0");
    List<Row> lineageBefore = lineage(reference);
    LocalSpark.Fingerprint rowsBefore = fingerprint(spark, reference);
    CompactionResult result =
        compactDecodeFree(catalog.loadTable(TableIdentifier.of("db", "lineage_reference")));
    assertThat(result.inputFiles()).isGreaterThan(1);
    spark.sql("REFRESH TABLE " + reference);
    assertThat(fingerprint(spark, reference)).isEqualTo(rowsBefore);
    assertThat(lineage(reference)).isEqualTo(lineageBefore);
  }

  @Test
  void filesOfAMergeThatUpdatesAndInsertsKeepTheirLineage() {
    String table = createTable("lineage_merge");
    for (int commit = 0; commit < 3; commit++) {
      insert(table, commit * 1_000, (commit + 1) * 1_000);
    }
    spark.sql(
        "MERGE INTO "
            + table
            + " t USING (SELECT id, 'merged' AS note FROM range(2500, 3500)) s ON t.id = s.id"
            + " WHEN MATCHED THEN UPDATE SET t.note = s.note"
            + " WHEN NOT MATCHED THEN INSERT (id, country, score, note) VALUES (s.id, 'NL', 1.0, s.note)");
    List<Row> lineageBefore = lineage(table);
    LocalSpark.Fingerprint rowsBefore = fingerprint(spark, table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                catalog.loadTable(TableIdentifier.of("db", "lineage_merge")),
                CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());

    assertThat(result.fallbackReasons().keySet()).isSubsetOf(FallbackReasons.LINEAGE_PARTLY_STORED);
    assertThat(result.copiedBytes()).isPositive();
    spark.sql("REFRESH TABLE " + table);
    assertThat(fingerprint(spark, table)).isEqualTo(rowsBefore);
    assertThat(lineage(table)).isEqualTo(lineageBefore);
  }

  private static CompactionResult compactDecodeFree(Table iceberg) {
    CompactionResult result =
        new TableCompactor()
            .compact(
                iceberg,
                CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    return result;
  }

  /**
   * Compacts {@code ours} with the core and {@code reference} with Spark's {@code
   * rewrite_data_files}, and checks that both read as before, lineage included.
   */
  private static void compactBoth(String ours, String reference) {
    List<Row> lineageBefore = lineage(ours);
    assertThat(lineage(reference)).isEqualTo(lineageBefore);
    LocalSpark.Fingerprint rowsBefore = fingerprint(spark, ours);
    assertThat(fingerprint(spark, reference)).isEqualTo(rowsBefore);
    Table iceberg = catalog.loadTable(TableIdentifier.of("db", "lineage_ours"));

    compactDecodeFree(iceberg);
    spark.sql(
        "CALL cat.system.rewrite_data_files(table => 'cat.db.lineage_reference',"
            + " options => map('min-input-files', '2'))");

    spark.sql("REFRESH TABLE " + ours);
    spark.sql("REFRESH TABLE " + reference);
    assertThat(LocalSpark.dataFileCount(spark, ours)).isEqualTo(1);
    assertThat(LocalSpark.dataFileCount(spark, reference)).isEqualTo(1);
    assertThat(fingerprint(spark, ours)).isEqualTo(rowsBefore);
    assertThat(fingerprint(spark, reference)).isEqualTo(rowsBefore);
    assertThat(lineage(ours)).isEqualTo(lineageBefore);
    assertThat(lineage(reference)).isEqualTo(lineageBefore);
  }

  /** Which lineage columns the table's data files store with values: none, _row_id only, both. */
  private static Set<String> storedLineage(Table table) {
    Set<String> kinds = new TreeSet<>();
    for (DataFile file : ParquetFooters.dataFiles(table)) {
      ParquetMetadata footer = ParquetFooters.footer(table, file);
      boolean rowIds = storesValues(footer, MetadataColumns.ROW_ID.name());
      boolean sequenceNumbers =
          storesValues(footer, MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name());
      kinds.add(
          rowIds && sequenceNumbers
              ? "both"
              : rowIds ? "_row_id only" : sequenceNumbers ? "sequence number only" : "none");
    }
    return kinds;
  }

  private static boolean storesValues(ParquetMetadata footer, String column) {
    if (!footer.getFileMetaData().getSchema().containsField(column)) {
      return false;
    }
    return footer.getBlocks().stream()
        .flatMap(block -> block.getColumns().stream())
        .filter(chunk -> chunk.getPath().toDotString().equals(column))
        .anyMatch(chunk -> chunk.getStatistics().getNumNulls() < chunk.getValueCount());
  }

  /** Every live row's id with its lineage, in id order. */
  private static List<Row> lineage(String table) {
    return spark
        .sql("SELECT id, _row_id, _last_updated_sequence_number FROM " + table + " ORDER BY id")
        .collectAsList();
  }

  private static long deleteFileCount(String table) {
    return spark.sql("SELECT count(*) FROM " + table + ".delete_files").first().getLong(0);
  }

  private static String createTable(String name) {
    String table = LocalSpark.ICEBERG_CATALOG + ".db." + name;
    spark.sql(
        "CREATE TABLE "
            + table
            + " (id BIGINT, country STRING, score DOUBLE, note STRING) USING iceberg"
            + " TBLPROPERTIES ('format-version' = '3', 'write.delete.mode' = 'merge-on-read',"
            + " 'write.update.mode' = 'merge-on-read')");
    return table;
  }

  private static void insert(String table, long from, long to) {
    spark.sql("INSERT INTO " + table + " " + ROWS + from + ", " + to + ")");
  }
}
