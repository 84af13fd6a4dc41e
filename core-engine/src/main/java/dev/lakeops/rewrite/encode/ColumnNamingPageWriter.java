package dev.lakeops.rewrite.encode;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;

/**
 * A column's page writer that runs {@code beforePage} before each page it hands on, so that the
 * file's shared compressor knows whose page it compresses next ({@link ZstdPageCompressor}).
 */
final class ColumnNamingPageWriter implements PageWriter {
  private final PageWriter pages;
  private final Runnable beforePage;

  ColumnNamingPageWriter(PageWriter pages, Runnable beforePage) {
    this.pages = requireNonNull(pages, "pages is null");
    this.beforePage = requireNonNull(beforePage, "beforePage is null");
  }

  @Override
  @Deprecated
  public void writePage(
      BytesInput bytes,
      int valueCount,
      Statistics<?> statistics,
      Encoding repetitionLevels,
      Encoding definitionLevels,
      Encoding values)
      throws IOException {
    beforePage.run();
    pages.writePage(bytes, valueCount, statistics, repetitionLevels, definitionLevels, values);
  }

  @Override
  public void writePage(
      BytesInput bytes,
      int valueCount,
      int rowCount,
      Statistics<?> statistics,
      Encoding repetitionLevels,
      Encoding definitionLevels,
      Encoding values)
      throws IOException {
    beforePage.run();
    pages.writePage(
        bytes, valueCount, rowCount, statistics, repetitionLevels, definitionLevels, values);
  }

  @Override
  public void writePage(
      BytesInput bytes,
      int valueCount,
      int rowCount,
      Statistics<?> statistics,
      SizeStatistics sizeStatistics,
      Encoding repetitionLevels,
      Encoding definitionLevels,
      Encoding values)
      throws IOException {
    beforePage.run();
    pages.writePage(
        bytes,
        valueCount,
        rowCount,
        statistics,
        sizeStatistics,
        repetitionLevels,
        definitionLevels,
        values);
  }

  @Override
  public void writePage(
      BytesInput bytes,
      int valueCount,
      int rowCount,
      Statistics<?> statistics,
      SizeStatistics sizeStatistics,
      GeospatialStatistics geospatialStatistics,
      Encoding repetitionLevels,
      Encoding definitionLevels,
      Encoding values)
      throws IOException {
    beforePage.run();
    pages.writePage(
        bytes,
        valueCount,
        rowCount,
        statistics,
        sizeStatistics,
        geospatialStatistics,
        repetitionLevels,
        definitionLevels,
        values);
  }

  @Override
  public void writePageV2(
      int rowCount,
      int nullCount,
      int valueCount,
      BytesInput repetitionLevels,
      BytesInput definitionLevels,
      Encoding dataEncoding,
      BytesInput data,
      Statistics<?> statistics)
      throws IOException {
    beforePage.run();
    pages.writePageV2(
        rowCount,
        nullCount,
        valueCount,
        repetitionLevels,
        definitionLevels,
        dataEncoding,
        data,
        statistics);
  }

  @Override
  public void writePageV2(
      int rowCount,
      int nullCount,
      int valueCount,
      BytesInput repetitionLevels,
      BytesInput definitionLevels,
      Encoding dataEncoding,
      BytesInput data,
      Statistics<?> statistics,
      SizeStatistics sizeStatistics)
      throws IOException {
    beforePage.run();
    pages.writePageV2(
        rowCount,
        nullCount,
        valueCount,
        repetitionLevels,
        definitionLevels,
        dataEncoding,
        data,
        statistics,
        sizeStatistics);
  }

  @Override
  public void writePageV2(
      int rowCount,
      int nullCount,
      int valueCount,
      BytesInput repetitionLevels,
      BytesInput definitionLevels,
      Encoding dataEncoding,
      BytesInput data,
      Statistics<?> statistics,
      SizeStatistics sizeStatistics,
      GeospatialStatistics geospatialStatistics)
      throws IOException {
    beforePage.run();
    pages.writePageV2(
        rowCount,
        nullCount,
        valueCount,
        repetitionLevels,
        definitionLevels,
        dataEncoding,
        data,
        statistics,
        sizeStatistics,
        geospatialStatistics);
  }

  @Override
  public long getMemSize() {
    return pages.getMemSize();
  }

  @Override
  public long allocatedSize() {
    return pages.allocatedSize();
  }

  @Override
  public void writeDictionaryPage(DictionaryPage dictionaryPage) throws IOException {
    beforePage.run();
    pages.writeDictionaryPage(dictionaryPage);
  }

  @Override
  public String memUsageString(String prefix) {
    return pages.memUsageString(prefix);
  }

  @Override
  public void close() {
    pages.close();
  }
}
