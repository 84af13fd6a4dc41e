package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pages read with LakeOps' codecs ({@link PageCodecs}: one-shot zstd, parquet-java's codecs for the
 * rest) hold exactly the bytes parquet-java's own codecs give, page for page.
 */
class PageCodecsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "text", Types.StringType.get()));

  @TempDir Path directory;

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "snappy", "gzip", "uncompressed"})
  void pagesDecompressToParquetJavasBytes(String codec) throws IOException {
    File file = directory.resolve(codec + ".parquet").toFile();
    try (FileAppender<Record> appender =
        Parquet.write(Files.localOutput(file))
            .schema(SCHEMA)
            .createWriterFunc(
                (icebergSchema, messageType) ->
                    GenericParquetWriter.create(icebergSchema, messageType))
            .setAll(
                Map.of(
                    TableProperties.PARQUET_COMPRESSION,
                    codec,
                    TableProperties.PARQUET_PAGE_ROW_LIMIT,
                    "700"))
            .build()) {
      for (long id = 0; id < 20_000; id++) {
        Record row = GenericRecord.create(SCHEMA);
        row.setField("id", id);
        row.setField("text", id % 7 == 0 ? null : "value-" + (id * 7919 % 1000));
        appender.add(row);
      }
    }

    List<byte[]> ours = pages(file, ParquetReadDefaults.readOptions());
    List<byte[]> parquetJavas = pages(file, ParquetReadOptions.builder().build());
    assertThat(ours).hasSizeGreaterThan(20).hasSameSizeAs(parquetJavas);
    for (int page = 0; page < ours.size(); page++) {
      assertThat(ours.get(page)).as("page %s", page).isEqualTo(parquetJavas.get(page));
    }
  }

  private static List<byte[]> pages(File file, ParquetReadOptions options) throws IOException {
    List<byte[]> pages = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file.toPath()), options)) {
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        for (ColumnDescriptor column : reader.getFileMetaData().getSchema().getColumns()) {
          PageReader pageReader = rowGroup.getPageReader(column);
          DictionaryPage dictionary = pageReader.readDictionaryPage();
          if (dictionary != null) {
            pages.add(dictionary.getBytes().toByteArray());
          }
          DataPage page;
          while ((page = pageReader.readPage()) != null) {
            pages.add(bytesOf(page));
          }
        }
      }
    }
    return pages;
  }

  private static byte[] bytesOf(DataPage page) throws IOException {
    if (page instanceof DataPageV1 v1) {
      return v1.getBytes().toByteArray();
    }
    return ((DataPageV2) page).getData().toByteArray();
  }
}
