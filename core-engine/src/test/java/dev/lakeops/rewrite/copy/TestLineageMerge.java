package dev.lakeops.rewrite.copy;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Files;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row lineage in the decode-free merge of format v3 files: files without lineage get it derived
 * from their first row id and sequence number, files that store it keep theirs, per column, and
 * files that store it for some rows only are not merged.
 */
class TestLineageMerge {
  private static final Schema TABLE =
      new Schema(
          required(1, "id", Types.LongType.get()), optional(2, "name", Types.StringType.get()));
  private static final Schema WITH_LINEAGE = MetadataColumns.schemaWithRowLineage(TABLE);

  @TempDir File directory;

  private final ParquetFileMerger merger = ParquetFileMerger.forIcebergSchema(WITH_LINEAGE);

  @Test
  void derivesMissingLineageAndKeepsStoredLineage() {
    InputFile bare = input("bare", rows(0, 50, null, null, false));
    InputFile stored = input("stored", rows(50, 30, 1_000L, 4L, false));
    InputFile idsOnly = input("ids-only", rows(80, 20, 2_000L, null, false));
    List<InputFile> inputs = List.of(bare, stored, idsOnly);
    List<InputFooter> footers = footers(inputs);
    MergeLayout layout =
        new ParquetMergeEligibility(ParquetSchemaUtil.convert(WITH_LINEAGE, "table"))
            .check(footers)
            .layout()
            .orElseThrow();
    assertThat(layout.inputs().get(0).derivedLineage(0))
        .containsExactlyInAnyOrder(
            LineageColumns.ROW_ID, LineageColumns.LAST_UPDATED_SEQUENCE_NUMBER);
    assertThat(layout.inputs().get(1).fitsUnchanged(0)).isTrue();
    assertThat(layout.inputs().get(2).derivedLineage(0))
        .containsExactly(LineageColumns.LAST_UPDATED_SEQUENCE_NUMBER);
    File output = new File(directory, "merged.parquet");
    // the stored input's own first row id and sequence number must not be used
    List<RowLineage> lineage =
        List.of(new RowLineage(500L, 2L), new RowLineage(9_000L, 3L), new RowLineage(7_000L, 6L));
    PositionDeleteIndex deleted = positions(0L, 7L, 49L);

    MergeResult result =
        merger.merge(
            inputs,
            footers,
            index -> index == 0 ? deleted : PositionDeleteIndex.empty(),
            lineage::get,
            Files.localOutput(output),
            MergeSettings.defaults());

    assertThat(result.rowCount()).isEqualTo(97);
    List<Record> merged = read(output);
    List<List<Long>> expected = new ArrayList<>();
    for (long id = 0; id < 100; id++) {
      if (id == 0 || id == 7 || id == 49) {
        continue;
      }
      if (id < 50) {
        expected.add(List.of(id, 500L + id, 2L));
      } else if (id < 80) {
        expected.add(List.of(id, 1_000L + id - 50, 4L));
      } else {
        expected.add(List.of(id, 2_000L + id - 80, 6L));
      }
    }
    assertThat(merged.stream().map(TestLineageMerge::lineageOf).toList()).isEqualTo(expected);
  }

  @Test
  void filesStoringLineageForSomeRowsOnlyAreNotMerged() {
    List<Record> rows = rows(0, 10, 100L, 1L, true);
    MergeEligibility eligibility =
        new ParquetMergeEligibility(ParquetSchemaUtil.convert(WITH_LINEAGE, "table"))
            .check(
                footers(
                    List.of(input("bare", rows(0, 5, null, null, false)), input("partly", rows))));

    assertThat(eligibility.isEligible()).isFalse();
    assertThat(eligibility.fallbackReason()).isEqualTo(FallbackReasons.LINEAGE_PARTLY_STORED);
    assertThat(eligibility.reasons())
        .singleElement()
        .asString()
        .endsWith("partly.parquet row group 0 stores _row_id for some rows only");
  }

  private static List<Long> lineageOf(Record record) {
    return Arrays.asList(
        (Long) record.getField("id"),
        (Long) record.getField(MetadataColumns.ROW_ID.name()),
        (Long) record.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name()));
  }

  /**
   * Rows with ids from {@code firstId}; without lineage columns when {@code firstRowId} is null,
   * else storing row ids from it and {@code sequence} (null: stored null), every other row id null
   * when {@code partly}.
   */
  private static List<Record> rows(
      long firstId, int count, Long firstRowId, Long sequence, boolean partly) {
    Schema schema = firstRowId == null ? TABLE : WITH_LINEAGE;
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      Record row = GenericRecord.create(schema);
      row.setField("id", firstId + index);
      row.setField("name", "name-" + (firstId + index));
      if (firstRowId != null) {
        row.setField(
            MetadataColumns.ROW_ID.name(), partly && index % 2 == 1 ? null : firstRowId + index);
        row.setField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name(), sequence);
      }
      rows.add(row);
    }
    return rows;
  }

  private InputFile input(String name, List<Record> rows) {
    Schema schema = rows.get(0).struct().fields().size() > 2 ? WITH_LINEAGE : TABLE;
    File file =
        ParquetTestFiles.write(
            new File(directory, name + ".parquet"),
            schema,
            rows,
            Map.of(),
            WriterVersion.PARQUET_1_0);
    return Files.localInput(file);
  }

  private static List<InputFooter> footers(List<InputFile> inputs) {
    return inputs.stream().map(input -> new ParquetFooterReader().read(input)).toList();
  }

  private static PositionDeleteIndex positions(Long... positions) {
    return Deletes.toPositionIndex(CloseableIterable.withNoopClose(List.of(positions)));
  }

  private static List<Record> read(File file) {
    try (CloseableIterable<Record> records =
        Parquet.read(Files.localInput(file))
            .project(WITH_LINEAGE)
            .createReaderFunc(
                schema ->
                    GenericParquetReaders.buildReader(
                        WITH_LINEAGE,
                        schema,
                        // what a reader fills null lineage from: values no row must show
                        Map.of(
                            MetadataColumns.ROW_ID.fieldId(),
                            1_000_000L,
                            MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.fieldId(),
                            99L)))
            .build()) {
      List<Record> rows = new ArrayList<>();
      records.forEach(rows::add);
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
