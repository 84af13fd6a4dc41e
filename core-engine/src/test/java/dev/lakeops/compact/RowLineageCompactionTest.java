package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.ParquetFooters;
import dev.lakeops.testing.RowLineages;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Binpack of format v3 tables by the decode-free merge: every live row keeps its {@code _row_id}
 * and {@code _last_updated_sequence_number}, read through Iceberg's generic reader, whether its
 * file stored lineage or had it derived, with and without deletion vectors.
 */
class RowLineageCompactionTest {
  private static final Schema SCHEMA =
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

  @ParameterizedTest(name = "deletion vectors {0}")
  @ValueSource(booleans = {false, true})
  void lineageOfEveryLiveRowSurvivesTheMerge(boolean deletionVectors) {
    Table table = createTable();
    List<DataFile> files = appendFiles(table, 0, 5, 300);
    if (deletionVectors) {
      TableFiles.deletionVector(table, files.get(1), 0, 7, 150, 299);
      TableFiles.deletionVector(table, files.get(3), 42);
    }
    Map<Long, List<Long>> before = lineage(table);
    RowFingerprint fingerprint = RowFingerprint.of(table);
    assertThat(before.size()).isEqualTo(deletionVectors ? 1495 : 1500);
    assertThat(before.values().stream().map(values -> values.get(1)).distinct()).hasSize(5);
    assertThat(before.values()).allMatch(values -> !values.contains(null));

    CompactionResult result = binpack(table);

    assertDecodeFree(result);
    table.refresh();
    assertThat(ParquetFooters.dataFiles(table)).hasSize(1);
    assertThat(lineage(table)).isEqualTo(before);
    assertThat(RowFingerprint.of(table)).isEqualTo(fingerprint);
    assertStoresLineageAsIcebergWritesIt(table);
    ParquetMetadata footer = ParquetFooters.footer(table, ParquetFooters.dataFiles(table).get(0));
    long minimum = Long.MAX_VALUE;
    long maximum = Long.MIN_VALUE;
    for (BlockMetaData block : footer.getBlocks()) {
      Statistics<?> rowIds = block.getColumns().get(3).getStatistics();
      minimum = Math.min(minimum, (Long) rowIds.genericGetMin());
      maximum = Math.max(maximum, (Long) rowIds.genericGetMax());
    }
    assertThat(minimum)
        .as("exact bounds of the written row ids")
        .isEqualTo(before.values().stream().mapToLong(values -> values.get(0)).min().orElseThrow());
    assertThat(maximum)
        .isEqualTo(before.values().stream().mapToLong(values -> values.get(0)).max().orElseThrow());
    for (BlockMetaData block : footer.getBlocks()) {
      for (int lineageColumn = 3; lineageColumn <= 4; lineageColumn++) {
        ColumnChunkMetaData chunk = block.getColumns().get(lineageColumn);
        assertThat(chunk.getEncodings())
            .as("derived lineage packed as deltas")
            .contains(Encoding.DELTA_BINARY_PACKED)
            .doesNotContain(Encoding.PLAIN);
        assertThat(chunk.getTotalUncompressedSize())
            .as("a derived lineage chunk takes far less than a long a row")
            .isLessThan(block.getRowCount() + 1024);
      }
    }
  }

  @Test
  void filesThatStoreLineageMergeWithFilesThatDoNot() {
    Table table = createTable();
    appendFiles(table, 0, 3, 200);
    assertDecodeFree(binpack(table));
    table.refresh();
    assertThat(ParquetFooters.dataFiles(table)).hasSize(1);
    DataFile rewritten = ParquetFooters.dataFiles(table).get(0);
    assertThat(rewritten.recordCount()).isEqualTo(600);
    TableFiles.deletionVector(table, rewritten, 1, 250, 599);
    List<DataFile> added = appendFiles(table, 600, 2, 100);
    TableFiles.deletionVector(table, added.get(0), 10);
    Map<Long, List<Long>> before = lineage(table);
    RowFingerprint fingerprint = RowFingerprint.of(table);
    assertThat(before.size()).isEqualTo(796);

    CompactionResult result = binpack(table);

    assertDecodeFree(result);
    assertThat(result.inputFiles()).isEqualTo(3);
    table.refresh();
    assertThat(ParquetFooters.dataFiles(table)).hasSize(1);
    assertThat(lineage(table)).isEqualTo(before);
    assertThat(RowFingerprint.of(table)).isEqualTo(fingerprint);
    assertStoresLineageAsIcebergWritesIt(table);
  }

  @Test
  void rowGroupsOfOneFileGetIdsFromTheirPositions() {
    Table table = createTable();
    table
        .updateProperties()
        .set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "2048")
        .set("write.parquet.row-group-check-min-record-count", "10")
        .set("write.parquet.row-group-check-max-record-count", "10")
        .commit();
    List<DataFile> files = appendFiles(table, 0, 3, 500);
    assertThat(ParquetFooters.footer(table, files.get(0)).getBlocks().size()).isGreaterThan(1);
    TableFiles.deletionVector(table, files.get(0), 3, 100, 101, 499);
    Map<Long, List<Long>> before = lineage(table);

    CompactionResult result = binpack(table);

    assertDecodeFree(result);
    table.refresh();
    assertThat(lineage(table)).isEqualTo(before);
  }

  @Test
  void filesWrittenBeforeTheUpgradeToV3MergeWithLaterOnes() {
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "upgraded"),
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    appendFiles(table, 0, 2, 100);
    table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
    List<DataFile> added = appendFiles(table, 200, 2, 100);
    TableFiles.deletionVector(table, added.get(1), 5);
    Map<Long, List<Long>> before = lineage(table);
    RowFingerprint fingerprint = RowFingerprint.of(table);

    CompactionResult result = binpack(table);

    assertDecodeFree(result);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(fingerprint);
    assertThat(lineage(table)).isEqualTo(before);
    // Iceberg hands the files from before the upgrade row ids too (from their manifest's)
    assertThat(before.values()).allMatch(values -> !values.contains(null));
    assertThat(before.size()).isEqualTo(399);
  }

  @Test
  void aFileStoringLineageForSomeRowsOnlyIsDecodedAndTheOthersMerged() {
    Table table = createTable();
    List<DataFile> files = appendFiles(table, 0, 3, 100);
    TableFiles.deletionVector(table, files.get(2), 50);
    DataFile partly = appendPartlyStoringLineage(table, 300, 60);
    Map<Long, List<Long>> before = lineage(table);
    RowFingerprint fingerprint = RowFingerprint.of(table);

    CompactionResult result = binpack(table);

    assertThat(result.fallbackReasons()).isEqualTo(Map.of("row lineage partly stored", 1));
    assertThat(result.decodedBytes()).isEqualTo(partly.fileSizeInBytes());
    assertThat(result.copiedBytes()).isEqualTo(result.inputBytes() - partly.fileSizeInBytes());
    assertThat(result.inputFiles()).isEqualTo(4);
    table.refresh();
    assertThat(lineage(table)).isEqualTo(before);
    assertThat(RowFingerprint.of(table)).isEqualTo(fingerprint);
    assertThat(ParquetFooters.dataFiles(table)).hasSize(2);
  }

  /**
   * Appends a file as an engine's {@code MERGE} writes one on a v3 table: updated rows (every other
   * one) keep their row id, inserted rows store none; no row stores a sequence number.
   */
  private static DataFile appendPartlyStoringLineage(Table table, long firstId, int count) {
    Schema schema = MetadataColumns.schemaWithRowLineage(table.schema());
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      GenericRecord record = GenericRecord.create(schema);
      record.setField("id", firstId + index);
      record.setField("category", "merged");
      record.setField("value", index * 2.0);
      record.setField(MetadataColumns.ROW_ID.name(), index % 2 == 0 ? 5_000L + index : null);
      rows.add(record);
    }
    OutputFile output =
        table.io().newOutputFile(table.locationProvider().newDataLocation("partly-stored.parquet"));
    DataWriter<Record> writer;
    try {
      writer =
          Parquet.writeData(output)
              .schema(schema)
              .withSpec(table.spec())
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .build();
      try (writer) {
        rows.forEach(writer::write);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = writer.toDataFile();
    table.newAppend().appendFile(file).commit();
    return file;
  }

  private static void assertDecodeFree(CompactionResult result) {
    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.copiedBytes()).isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
  }

  /** The new files store both lineage columns as Iceberg's writer does, after the table's. */
  private static void assertStoresLineageAsIcebergWritesIt(Table table) {
    for (DataFile file : ParquetFooters.dataFiles(table)) {
      ParquetMetadata footer = ParquetFooters.footer(table, file);
      MessageType schema = footer.getFileMetaData().getSchema();
      assertThat(schema.getFieldCount()).isEqualTo(5);
      assertLineageColumn(schema.getType(3), MetadataColumns.ROW_ID);
      assertLineageColumn(schema.getType(4), MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER);
      assertThat(file.firstRowId()).isNotNull();
      for (int index = 0; index < footer.getBlocks().size(); index++) {
        assertThat(footer.getBlocks().get(index).getColumns().get(3).getStatistics().getNumNulls())
            .isZero();
      }
    }
  }

  private static void assertLineageColumn(Type column, Types.NestedField expected) {
    assertThat(column.getName()).isEqualTo(expected.name());
    assertThat(column.getId().intValue()).isEqualTo(expected.fieldId());
    assertThat(column.getRepetition()).isEqualTo(Type.Repetition.OPTIONAL);
    assertThat(column.asPrimitiveType().getPrimitiveTypeName())
        .isEqualTo(PrimitiveType.PrimitiveTypeName.INT64);
  }

  private static CompactionResult binpack(Table table) {
    return new TableCompactor()
        .compact(
            table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
  }

  /** id → (_row_id, _last_updated_sequence_number) of every live row (null: no lineage). */
  private static Map<Long, List<Long>> lineage(Table table) {
    return RowLineages.of(table, "id");
  }

  private Table createTable() {
    return catalog.createTable(
        TableIdentifier.of("db", "lineage"),
        SCHEMA,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "3"));
  }

  /**
   * Appends {@code files} files (one commit each) of {@code rowsPerFile} rows, ids from firstId.
   */
  private static List<DataFile> appendFiles(Table table, long firstId, int files, int rowsPerFile) {
    List<DataFile> written = new ArrayList<>();
    for (int file = 0; file < files; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < rowsPerFile; row++) {
        GenericRecord record = GenericRecord.create(table.schema());
        long id = firstId + (long) file * rowsPerFile + row;
        record.setField("id", id);
        record.setField("category", row % 3 == 0 ? null : "c" + (row % 10));
        record.setField("value", row * 0.5);
        rows.add(record);
      }
      written.add(TableFiles.append(table, null, rows));
    }
    return written;
  }
}
