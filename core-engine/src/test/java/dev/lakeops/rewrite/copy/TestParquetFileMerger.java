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
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestParquetFileMerger {
  private static final MetricsConfig FULL_METRICS =
      MetricsConfig.fromProperties(Map.of(TableProperties.DEFAULT_WRITE_METRICS_MODE, "full"));

  @TempDir
  File directory;

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
    assertThat(result.footer().getFileMetaData().getKeyValueMetaData()).containsKey("iceberg.schema");
    assertThat(result.footer().getFileMetaData().getSchema())
        .isEqualTo(org.apache.iceberg.parquet.ParquetSchemaUtil.convert(ParquetTestFiles.SCHEMA, "table"));
    assertThat(dataEncodings(result.footer(), "country")).contains(Encoding.PLAIN_DICTIONARY);
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void copiesLargeRowGroupsWhole() {
    List<List<Record>> inputs = List.of(
        ParquetTestFiles.rows(1, 0, 400), ParquetTestFiles.rows(2, 400, 300), ParquetTestFiles.rows(3, 700, 200));
    List<File> files = writeAll(inputs, Map.of(), WriterVersion.PARQUET_1_0);

    MergeResult result = merge(files, MergeSettings.defaults().withMinCopyRowGroupBytes(ByteSize.ofBytes(1)));

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.rowGroupsWritten()).isEqualTo(3);
    assertThat(result.rowGroupsCopiedWhole()).isEqualTo(3);
    assertThat(result.bytesRewritten()).isZero();
    assertSameStatisticsAsNormalWrite(result.footer(), expected);
  }

  @Test
  void splitsOutputRowGroupsAtTargetSizeAndCopiesManyRowGroupsPerInput() {
    Map<String, String> smallRowGroups = Map.of(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "8192");
    List<List<Record>> inputs = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      inputs.add(ParquetTestFiles.rows(10 + file, file * 5000L, 3000));
    }
    List<File> files = writeAll(inputs, smallRowGroups, WriterVersion.PARQUET_1_0);
    int inputRowGroups = 0;
    for (File file : files) {
      inputRowGroups += new ParquetFooterReader().read(Files.localInput(file)).footer().getBlocks().size();
    }

    MergeResult result = merge(files, MergeSettings.defaults().withTargetRowGroupBytes(ByteSize.ofBytes(60_000)));

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

    MergeResult result = merge(files, MergeSettings.defaults().withMaxDictionaryBytes(ByteSize.ofBytes(700)));

    List<Record> expected = concatenate(inputs);
    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(expected);
    assertThat(result.columnChunksWithPlainFallback()).isPositive();
    assertThat(dataEncodings(result.footer(), "country")).contains(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY);
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

    MergeResult result = merge(files, MergeSettings.defaults().withMaxDictionaryBytes(ByteSize.ofBytes(700)));

    assertThat(ParquetTestFiles.read(output())).containsExactlyElementsOf(concatenate(inputs));
    assertThat(result.columnChunksWithPlainFallback()).isPositive();
  }

  @Test
  void refusesFilesOfAnotherCodec() {
    File zstd = ParquetTestFiles.write(new File(directory, "zstd.parquet"), ParquetTestFiles.rows(1, 0, 10));
    File snappy = ParquetTestFiles.write(
        new File(directory, "snappy.parquet"),
        ParquetTestFiles.rows(2, 10, 10),
        Map.of(TableProperties.PARQUET_COMPRESSION, "snappy"),
        WriterVersion.PARQUET_1_0);

    assertThatThrownBy(() -> merge(List.of(zstd, snappy), MergeSettings.defaults()))
        .isInstanceOf(MergeIneligibleException.class)
        .hasMessageContaining("snappy.parquet column 'id' is compressed with SNAPPY, the target codec is ZSTD");
    assertThat(output()).doesNotExist();
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

  private List<File> writeAll(List<List<Record>> inputs, Map<String, String> properties, WriterVersion version) {
    List<File> files = new ArrayList<>();
    for (int index = 0; index < inputs.size(); index++) {
      files.add(ParquetTestFiles.write(new File(directory, "input-" + index + ".parquet"), inputs.get(index), properties, version));
    }
    return files;
  }

  private static List<Record> concatenate(List<List<Record>> inputs) {
    List<Record> rows = new ArrayList<>();
    inputs.forEach(rows::addAll);
    return rows;
  }

  /** Footer statistics and Iceberg metrics equal those of one file written normally from the rows. */
  private void assertSameStatisticsAsNormalWrite(ParquetMetadata merged, List<Record> rows) {
    File normal = ParquetTestFiles.write(new File(directory, "normal.parquet"), rows);
    ParquetMetadata normalFooter = new ParquetFooterReader().read(Files.localInput(normal)).footer();
    for (ColumnDescriptor column : merged.getFileMetaData().getSchema().getColumns()) {
      String path = String.join(".", column.getPath());
      Statistics<?> mergedStatistics = columnStatistics(merged, path);
      Statistics<?> normalStatistics = columnStatistics(normalFooter, path);
      assertThat(mergedStatistics.getNumNulls()).as("null count of %s", path).isEqualTo(normalStatistics.getNumNulls());
      assertThat(mergedStatistics.hasNonNullValue()).as("has values %s", path).isEqualTo(normalStatistics.hasNonNullValue());
      if (normalStatistics.hasNonNullValue()) {
        assertThat(mergedStatistics.minAsString()).as("min of %s", path).isEqualTo(normalStatistics.minAsString());
        assertThat(mergedStatistics.maxAsString()).as("max of %s", path).isEqualTo(normalStatistics.maxAsString());
      }
    }
    Metrics mergedMetrics = ParquetUtil.footerMetrics(merged, Stream.empty(), FULL_METRICS);
    Metrics normalMetrics = ParquetUtil.footerMetrics(normalFooter, Stream.empty(), FULL_METRICS);
    assertThat(mergedMetrics.recordCount()).isEqualTo(normalMetrics.recordCount()).isEqualTo(rows.size());
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
