package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Binpack of files with position deletes takes the decode-free merge: deleted rows are left out
 * page by page, with several row groups and pages per file, merged and overflowing dictionaries,
 * nulls, and every physical type Iceberg writes for a flat table.
 */
class PositionDeletesWithoutDecodingTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "category", Types.StringType.get()),
          Types.NestedField.optional(3, "note", Types.StringType.get()),
          Types.NestedField.optional(4, "flag", Types.BooleanType.get()),
          Types.NestedField.optional(5, "amount", Types.DecimalType.of(38, 2)),
          Types.NestedField.optional(6, "price", Types.DoubleType.get()),
          Types.NestedField.optional(7, "day", Types.DateType.get()),
          Types.NestedField.optional(8, "count", Types.IntegerType.get()));
  private static final int FILES = 8;
  private static final int ROWS_PER_FILE = 1000;

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void deletedRowsAreLeftOutWithoutDecoding() {
    Table table = createTable();
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      files.add(TableFiles.append(table, null, rows(table, file)));
    }
    assertThat(rowGroups(table)).as("row groups per file").isGreaterThan(FILES);
    // every 7th row and a stretch across a row-group boundary; all rows of one file; none of
    // another; a few rows of one page
    for (int file = 0; file < FILES; file++) {
      if (file == 6) {
        continue;
      }
      int offset = file % 7;
      long[] positions =
          switch (file) {
            case 5 -> LongStream.range(0, ROWS_PER_FILE).toArray();
            // a few rows of one page: the file's other pages are copied as they are
            case 7 -> LongStream.range(10, 21).toArray();
            default ->
                LongStream.range(0, ROWS_PER_FILE)
                    .filter(row -> row % 7 == offset || (row >= 300 && row < 420))
                    .toArray();
          };
      TableFiles.deletePositions(table, files.get(file), positions);
    }
    RowFingerprint before = RowFingerprint.of(table);
    List<Record> live = liveRows(table);
    long largestInputPageRows = 0;
    for (DataFile file : dataFiles(table)) {
      largestInputPageRows = Math.max(largestInputPageRows, largestPageRows(file));
    }
    assertThat(before.rowCount()).isEqualTo(live.size()).isLessThan(6 * ROWS_PER_FILE);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    assertThat(result.removedDeleteFiles()).isEqualTo(FILES - 1);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isZero();
    List<DataFile> after = dataFiles(table);
    assertThat(after).hasSize(1);
    assertMetricsHold(after.get(0), live);
    // parquet-java checks the row limit every 100 rows, so Iceberg's writer made 100-row pages.
    // Pages gathered anew are written once they reach the table's limit (64 rows): at most the
    // limit plus one input page, where Iceberg's default limit would have made thousands
    assertThat(largestInputPageRows).isEqualTo(100);
    assertThat(largestPageRows(after.get(0))).isLessThanOrEqualTo(64 + largestInputPageRows);
  }

  /** The most rows any page of {@code file} holds, from its offset indexes. */
  private static long largestPageRows(DataFile file) {
    long largest = 0;
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.location()), new Configuration()))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          OffsetIndex pages = reader.readOffsetIndex(chunk);
          for (int page = 0; page < pages.getPageCount(); page++) {
            largest =
                Math.max(
                    largest,
                    pages.getLastRowIndex(page, block.getRowCount())
                        - pages.getFirstRowIndex(page)
                        + 1);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return largest;
  }

  @Test
  void aGroupWhoseRowsAreAllDeletedLeavesNoFile() {
    Table table = createTable();
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 6; file++) {
      files.add(TableFiles.append(table, null, rows(table, file)));
    }
    for (DataFile file : files) {
      TableFiles.deletePositions(table, file, LongStream.range(0, ROWS_PER_FILE).toArray());
    }

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    table.refresh();
    assertThat(RowFingerprint.of(table).rowCount()).isZero();
    assertThat(dataFiles(table)).isEmpty();
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isZero();
  }

  @Test
  void equalityDeletesStillDecodeAndSayWhy() {
    Table table = createTable();
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 6; file++) {
      files.add(TableFiles.append(table, null, rows(table, file)));
    }
    TableFiles.deletePositions(table, files.get(0), 1, 2, 3);
    TableFiles.deleteEqual(table, null, "category", "c1-0");
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEqualTo(Map.of("equality deletes", 1));
    assertThat(result.decodedBytes()).isEqualTo(result.inputBytes());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  /**
   * The file's value and null counts are exact for the live rows, and its bounds hold them (they
   * may be wider: deleted rows can have held the extremes).
   */
  private static void assertMetricsHold(DataFile file, List<Record> live) {
    assertThat(file.recordCount()).isEqualTo(live.size());
    for (Types.NestedField field : SCHEMA.columns()) {
      int id = field.fieldId();
      long nulls = live.stream().filter(row -> row.getField(field.name()) == null).count();
      assertThat(file.valueCounts().get(id)).as("values of " + field.name()).isEqualTo(live.size());
      assertThat(file.nullValueCounts().get(id)).as("nulls of " + field.name()).isEqualTo(nulls);
      if (field.type().typeId() == Types.BooleanType.get().typeId()) {
        continue;
      }
      Comparable<Object> lower = bound(field.type(), file.lowerBounds().get(id));
      Comparable<Object> upper = bound(field.type(), file.upperBounds().get(id));
      for (Record row : live) {
        Object value = comparable(row.getField(field.name()));
        if (value != null) {
          assertThat(lower.compareTo(value))
              .as("lower bound of " + field.name())
              .isLessThanOrEqualTo(0);
          if (upper != null) {
            assertThat(upper.compareTo(value))
                .as("upper bound of " + field.name())
                .isGreaterThanOrEqualTo(0);
          }
        }
      }
    }
  }

  /** A bound as the values compare; strings' upper bounds may be absent (truncation). */
  @SuppressWarnings("unchecked")
  private static Comparable<Object> bound(org.apache.iceberg.types.Type type, ByteBuffer bytes) {
    return bytes == null
        ? null
        : (Comparable<Object>) comparable(Conversions.fromByteBuffer(type, bytes));
  }

  private static Object comparable(Object value) {
    if (value instanceof LocalDate date) {
      return (int) date.toEpochDay();
    }
    if (value instanceof CharSequence text) {
      return text.toString();
    }
    return value;
  }

  private Table createTable() {
    Map<String, String> properties = new HashMap<>();
    properties.put("format-version", "2");
    properties.put("write.parquet.page-row-limit", "64");
    properties.put("write.parquet.row-group-size-bytes", "4096");
    properties.put("write.parquet.dict-size-bytes", "1024");
    return catalog.createTable(
        TableIdentifier.of("db", "t"), SCHEMA, PartitionSpec.unpartitioned(), properties);
  }

  private static List<Record> rows(Table table, int file) {
    List<Record> rows = new ArrayList<>();
    for (int row = 0; row < ROWS_PER_FILE; row++) {
      GenericRecord record = GenericRecord.create(table.schema());
      record.setField("id", (long) file * ROWS_PER_FILE + row);
      record.setField("category", row % 11 == 0 ? null : "c" + (row % 4) + "-" + (file % 3));
      record.setField("note", row % 3 == 0 ? null : "note " + file + "/" + row);
      record.setField("flag", row % 5 == 0 ? null : row % 2 == 0);
      record.setField("amount", row % 13 == 0 ? null : new BigDecimal(row * 7 + file + ".25"));
      record.setField("price", row % 17 == 0 ? null : row * 0.5 - file);
      record.setField("day", LocalDate.of(2026, 1, 1).plusDays((row + file) % 40));
      record.setField("count", row % 19 == 0 ? null : row - 500);
      rows.add(record);
    }
    return rows;
  }

  private static List<Record> liveRows(Table table) {
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(record -> rows.add(record.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  private static int rowGroups(Table table) {
    int rowGroups = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        rowGroups += task.file().splitOffsets().size();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rowGroups;
  }

  private static List<DataFile> dataFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
