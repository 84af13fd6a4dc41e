package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.unit.ByteSize;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Files;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestParquetFileMerger {
  private static final MetricsConfig FULL_METRICS =
      MetricsConfig.fromProperties(Map.of(TableProperties.DEFAULT_WRITE_METRICS_MODE, "full"));

  @TempDir File directory;

  @Test
  void coalescesSmallFilesWithMergedDictionaries() {
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 5; file++) {
      inputs.add(ParquetTestFiles.rows(file, file * 1000L, 700 + file * 50));
    }
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_1_0);

    MergeResult result = merge(files, MergeSettings.defaults());

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.rowCount()).isEqualTo(expected.size());
    assertThat(result.rowGroupsWritten()).isEqualTo(1);
    assertThat(result.footer().getBlocks()).hasSize(1).hasSizeLessThan(files.size());
    assertThat(result.columnChunksWithMergedDictionary()).isPositive();
    assertThat(result.columnChunksWithPlainFallback()).isZero();
    assertThat(result.bytesRewritten()).isPositive();
    assertThat(result.bytesCopiedVerbatim()).isPositive();
    assertThat(result.outputLength()).isEqualTo(output().length());
    assertThat(result.footer().getFileMetaData().getKeyValueMetaData())
        .containsKey("iceberg.schema");
    assertThat(result.footer().getFileMetaData().getSchema())
        .isEqualTo(
            org.apache.iceberg.parquet.ParquetSchemaUtil.convert(ParquetTestFiles.SCHEMA, "table"));
    assertThat(dataEncodings(result.footer(), "country")).contains(Encoding.PLAIN_DICTIONARY);
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void copiesLargeRowGroupsWhole() {
    List<List<Record>> inputs =
        List.of(
            ParquetTestFiles.rows(1, 0, 400),
            ParquetTestFiles.rows(2, 400, 300),
            ParquetTestFiles.rows(3, 700, 200));
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_1_0);

    MergeResult result =
        merge(files, MergeSettings.defaults().withMinCopyRowGroupBytes(ByteSize.ofBytes(1)));

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.rowGroupsWritten()).isEqualTo(3);
    assertThat(result.rowGroupsCopiedWhole()).isEqualTo(3);
    assertThat(result.bytesRewritten()).isZero();
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void splitsOutputRowGroupsAtTargetSizeAndCopiesManyRowGroupsPerInput() {
    Map<String, String> smallRowGroups =
        Map.of(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "8192");
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      inputs.add(ParquetTestFiles.rows(10 + file, file * 5000L, 3000));
    }
    List<File> files = writeAll(inputs, smallRowGroups, WriterVersion.PARQUET_1_0);
    int inputRowGroups = 0;
    for (File file : files) {
      inputRowGroups +=
          new ParquetFooterReader().read(Files.localInput(file)).footer().getBlocks().size();
    }

    MergeResult result =
        merge(files, MergeSettings.defaults().withTargetRowGroupBytes(ByteSize.ofBytes(60_000)));

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(inputRowGroups).isGreaterThan(files.size());
    assertThat(result.rowGroupsWritten()).isGreaterThan(1).isLessThan(inputRowGroups);
    assertThat(result.footer().getBlocks()).hasSize(result.rowGroupsWritten());
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void expandsPagesToPlainWhenMergedDictionaryIsTooLarge() {
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      inputs.add(ParquetTestFiles.uniqueCountryRows(20 + file, file * 1000L, 500));
    }
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_1_0);

    MergeResult result =
        merge(files, MergeSettings.defaults().withMaxDictionaryBytes(ByteSize.ofBytes(700)));

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.columnChunksWithPlainFallback()).isPositive();
    assertThat(dataEncodings(result.footer(), "country"))
        .contains(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY);
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void mergesDataPageV2Files() {
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      inputs.add(ParquetTestFiles.rows(30 + file, file * 1000L, 800));
    }
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_2_0);

    MergeResult result = merge(files, MergeSettings.defaults());

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.rowGroupsWritten()).isEqualTo(1);
    assertThat(result.columnChunksWithMergedDictionary()).isPositive();
    assertThat(dataEncodings(result.footer(), "country")).contains(Encoding.RLE_DICTIONARY);
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void mergesDataPageV2FilesWithPlainFallback() {
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 3; file++) {
      inputs.add(ParquetTestFiles.uniqueCountryRows(40 + file, file * 1000L, 400));
    }
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_2_0);

    MergeResult result =
        merge(files, MergeSettings.defaults().withMaxDictionaryBytes(ByteSize.ofBytes(700)));

    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(concatenate(inputs));
    assertThat(result.columnChunksWithPlainFallback()).isPositive();
  }

  @Test
  void keepsEachFilesCodecAndRecompressesOnlyChunksMergedAcrossCodecs() {
    List<Record> zstdRows = ParquetTestFiles.rows(1, 0, 300);
    List<Record> snappyRows = ParquetTestFiles.rows(2, 300, 300);
    File zstd = ParquetTestFiles.write(new File(directory, "zstd.parquet"), zstdRows);
    File snappy =
        ParquetTestFiles.write(
            new File(directory, "snappy.parquet"),
            snappyRows,
            Map.of(TableProperties.PARQUET_COMPRESSION, "snappy"),
            WriterVersion.PARQUET_1_0);

    MergeResult coalesced = merge(List.of(zstd, snappy), MergeSettings.defaults());

    assertThat(ParquetTestFiles.read(output()))
        .containsExactlyElementsOf(concatenate(List.of(zstdRows, snappyRows)));
    assertThat(codecs(coalesced.footer())).containsOnly(CompressionCodecName.ZSTD);
    assertSameStatisticsAsNormalWrite(
        coalesced.footer(), concatenate(List.of(zstdRows, snappyRows)));

    assertThat(output().delete()).isTrue();
    MergeResult copied =
        merge(
            List.of(snappy, zstd),
            MergeSettings.defaults().withMinCopyRowGroupBytes(ByteSize.ofBytes(1)));

    assertThat(ParquetTestFiles.read(output()))
        .containsExactlyElementsOf(concatenate(List.of(snappyRows, zstdRows)));
    assertThat(copied.rowGroupsCopiedWhole()).isEqualTo(2);
    assertThat(codecs(copied.footer()))
        .containsExactlyInAnyOrder(CompressionCodecName.SNAPPY, CompressionCodecName.ZSTD);
  }

  @Test
  void rewritesEveryPageInTheTableCodecWhenAsked() {
    List<Record> rows = ParquetTestFiles.rows(3, 0, 300);
    File snappy =
        ParquetTestFiles.write(
            new File(directory, "snappy.parquet"),
            rows,
            Map.of(TableProperties.PARQUET_COMPRESSION, "snappy"),
            WriterVersion.PARQUET_2_0);

    MergeResult result =
        merge(
            List.of(snappy),
            MergeSettings.defaults()
                .withMinCopyRowGroupBytes(ByteSize.ofBytes(1))
                .withRewriteCodec(true));

    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(rows);
    assertThat(result.rowGroupsCopiedWhole()).isZero();
    assertThat(codecs(result.footer())).containsOnly(CompressionCodecName.ZSTD);
  }

  @Test
  void addsDefinitionLevelsToColumnsRequiredInSomeFilesAndOptionalInOthers() {
    List<List<Record>> inputs = new ArrayList<>();
    List<File> files = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      List<Record> rows = ParquetTestFiles.rows(50 + file, file * 1000L, 600);
      boolean required = file % 2 == 0;
      if (required) {
        rows.forEach(
            row ->
                row.setField(
                    "quantity", row.getField("quantity") == null ? 7 : row.getField("quantity")));
      }
      inputs.add(rows);
      WriterVersion version = file < 2 ? WriterVersion.PARQUET_1_0 : WriterVersion.PARQUET_2_0;
      files.add(
          ParquetTestFiles.write(
              new File(directory, "input-" + file + ".parquet"),
              required ? withRequiredQuantity(ParquetTestFiles.SCHEMA) : ParquetTestFiles.SCHEMA,
              rows,
              Map.of(),
              version));
    }

    MergeResult result = merge(files, MergeSettings.defaults());

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.footer().getFileMetaData().getSchema().getType("quantity").getRepetition())
        .isEqualTo(Type.Repetition.OPTIONAL);
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void keepsAColumnRequiredWhenEveryFileHasItRequired() {
    List<Record> first = ParquetTestFiles.rows(60, 0, 200);
    List<Record> second = ParquetTestFiles.rows(61, 200, 200);
    for (Record row : concatenate(List.of(first, second))) {
      row.setField("quantity", row.getField("quantity") == null ? 1 : row.getField("quantity"));
    }
    Schema requiredQuantity = withRequiredQuantity(ParquetTestFiles.SCHEMA);
    List<File> files =
        List.of(
            ParquetTestFiles.write(
                new File(directory, "a.parquet"),
                requiredQuantity,
                first,
                Map.of(),
                WriterVersion.PARQUET_1_0),
            ParquetTestFiles.write(
                new File(directory, "b.parquet"),
                requiredQuantity,
                second,
                Map.of(),
                WriterVersion.PARQUET_2_0));

    MergeResult result = merge(files, MergeSettings.defaults());

    assertThat(ParquetTestFiles.read(output()))
        .containsExactlyElementsOf(concatenate(List.of(first, second)));
    assertThat(result.footer().getFileMetaData().getSchema().getType("quantity").getRepetition())
        .isEqualTo(Type.Repetition.REQUIRED);
  }

  @Test
  void matchesRenamedColumnsByFieldIdAndWritesTheTableName() {
    Schema oldNames =
        new Schema(
            ParquetTestFiles.SCHEMA.columns().stream()
                .map(
                    field ->
                        field.fieldId() == 3
                            ? Types.NestedField.optional(3, "nation", field.type())
                            : field)
                .toList());
    List<Record> before = ParquetTestFiles.rows(70, 0, 300);
    List<Record> after = ParquetTestFiles.rows(71, 300, 300);
    List<File> files =
        List.of(
            ParquetTestFiles.write(
                new File(directory, "before.parquet"),
                oldNames,
                before,
                Map.of(),
                WriterVersion.PARQUET_1_0),
            ParquetTestFiles.write(
                new File(directory, "after.parquet"),
                ParquetTestFiles.SCHEMA,
                after,
                Map.of(),
                WriterVersion.PARQUET_1_0));

    MergeResult result =
        merge(files, MergeSettings.defaults().withMinCopyRowGroupBytes(ByteSize.ofBytes(1)));

    assertThat(ParquetTestFiles.read(output()))
        .containsExactlyElementsOf(concatenate(List.of(before, after)));
    assertThat(result.footer().getFileMetaData().getSchema().containsField("country")).isTrue();
    assertThat(result.rowGroupsCopiedWhole())
        .as("the renamed file's row group goes through its pages")
        .isEqualTo(1);
  }

  @Test
  void refusesFilesWhoseTypesDiffer() {
    Schema promoted =
        new Schema(
            ParquetTestFiles.SCHEMA.columns().stream()
                .map(
                    field ->
                        field.fieldId() == 2
                            ? Types.NestedField.optional(2, "quantity", Types.LongType.get())
                            : field)
                .toList());
    File narrow =
        ParquetTestFiles.write(new File(directory, "int.parquet"), ParquetTestFiles.rows(1, 0, 10));
    List<Record> wideRows = ParquetTestFiles.rows(2, 10, 10);
    wideRows.forEach(
        row ->
            row.setField(
                "quantity",
                row.getField("quantity") == null
                    ? null
                    : ((Integer) row.getField("quantity")).longValue()));
    File wide =
        ParquetTestFiles.write(
            new File(directory, "long.parquet"),
            promoted,
            wideRows,
            Map.of(),
            WriterVersion.PARQUET_1_0);

    assertThatThrownBy(() -> merge(List.of(narrow, wide), MergeSettings.defaults()))
        .isInstanceOf(MergeIneligibleException.class)
        .hasMessageContaining(
            "long.parquet column 'quantity' has physical type INT64, the first input INT32");
    assertThat(output()).doesNotExist();
  }

  private static Schema withRequiredQuantity(Schema schema) {
    return new Schema(
        schema.columns().stream()
            .map(
                field ->
                    field.fieldId() == 2
                        ? Types.NestedField.required(2, "quantity", field.type())
                        : field)
            .toList());
  }

  private static List<CompressionCodecName> codecs(ParquetMetadata footer) {
    List<CompressionCodecName> codecs = new ArrayList<>();
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (!codecs.contains(chunk.getCodec())) {
          codecs.add(chunk.getCodec());
        }
      }
    }
    return codecs;
  }

  private MergeResult merge(List<File> files, MergeSettings settings) {
    List<InputFile> inputs = new ArrayList<>();
    for (File file : files) {
      inputs.add(Files.localInput(file));
    }
    return ParquetFileMerger.forIcebergSchema(ParquetTestFiles.SCHEMA)
        .merge(inputs, Files.localOutput(output()), settings);
  }

  private File output() {
    return new File(directory, "merged.parquet");
  }

  private List<File> writeAll(
      List<List<Record>> inputs, Map<String, String> properties, WriterVersion version) {
    List<File> files = new ArrayList<>();
    for (int index = 0; index < inputs.size(); index++) {
      files.add(
          ParquetTestFiles.write(
              new File(directory, "input-" + index + ".parquet"),
              inputs.get(index),
              properties,
              version));
    }
    return files;
  }

  private static List<Record> concatenate(List<List<Record>> inputs) {
    List<Record> rows = new ArrayList<>();
    inputs.forEach(rows::addAll);
    return rows;
  }

  /**
   * Footer statistics and Iceberg metrics equal those of one file written normally from the rows.
   */
  private void assertSameStatisticsAsNormalWrite(ParquetMetadata merged, List<Record> rows) {
    File normal = ParquetTestFiles.write(new File(directory, "normal.parquet"), rows);
    ParquetMetadata normalFooter =
        new ParquetFooterReader().read(Files.localInput(normal)).footer();
    for (ColumnDescriptor column : merged.getFileMetaData().getSchema().getColumns()) {
      String path = String.join(".", column.getPath());
      Statistics<?> mergedStatistics = columnStatistics(merged, path);
      Statistics<?> normalStatistics = columnStatistics(normalFooter, path);
      assertThat(mergedStatistics.getNumNulls())
          .as("null count of %s", path)
          .isEqualTo(normalStatistics.getNumNulls());
      assertThat(mergedStatistics.hasNonNullValue())
          .as("has values %s", path)
          .isEqualTo(normalStatistics.hasNonNullValue());
      if (normalStatistics.hasNonNullValue()) {
        assertThat(mergedStatistics.minAsString())
            .as("min of %s", path)
            .isEqualTo(normalStatistics.minAsString());
        assertThat(mergedStatistics.maxAsString())
            .as("max of %s", path)
            .isEqualTo(normalStatistics.maxAsString());
      }
    }
    Metrics mergedMetrics = ParquetUtil.footerMetrics(merged, Stream.empty(), FULL_METRICS);
    Metrics normalMetrics = ParquetUtil.footerMetrics(normalFooter, Stream.empty(), FULL_METRICS);
    assertThat(mergedMetrics.recordCount())
        .isEqualTo(normalMetrics.recordCount())
        .isEqualTo(rows.size());
    assertThat(mergedMetrics.valueCounts()).isEqualTo(normalMetrics.valueCounts());
    assertThat(mergedMetrics.nullValueCounts()).isEqualTo(normalMetrics.nullValueCounts());
    assertThat(mergedMetrics.lowerBounds()).isEqualTo(normalMetrics.lowerBounds());
    assertThat(mergedMetrics.upperBounds()).isEqualTo(normalMetrics.upperBounds());
    Metrics fileMetrics = ParquetUtil.fileMetrics(Files.localInput(output()), FULL_METRICS);
    assertThat(fileMetrics.lowerBounds()).isEqualTo(mergedMetrics.lowerBounds());
    assertThat(fileMetrics.valueCounts()).isEqualTo(mergedMetrics.valueCounts());
    assertThat(normal.delete()).isTrue();
  }

  private static Statistics<?> columnStatistics(ParquetMetadata footer, String path) {
    Statistics<?> merged = null;
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (chunk.getPath().toDotString().equals(path)) {
          if (merged == null) {
            merged = chunk.getStatistics().copy();
          } else {
            merged.mergeStatistics(chunk.getStatistics());
          }
        }
      }
    }
    assertThat(merged).as("statistics of %s", path).isNotNull();
    return merged;
  }

  private static List<Encoding> dataEncodings(ParquetMetadata footer, String path) {
    List<Encoding> encodings = new ArrayList<>();
    for (BlockMetaData block : footer.getBlocks()) {
      for (ColumnChunkMetaData chunk : block.getColumns()) {
        if (chunk.getPath().toDotString().equals(path)) {
          encodings.addAll(chunk.getEncodingStats().getDataEncodings());
        }
      }
    }
    return encodings;
  }
}
