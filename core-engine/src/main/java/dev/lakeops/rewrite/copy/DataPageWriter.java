package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileWriter;

/**
 * Writes data pages of the current column chunk through a {@link ParquetFileWriter}: either an
 * input page's bytes unchanged, or a rewritten page body. Page statistics are left empty; the
 * caller sets the chunk statistics with {@link ParquetFileWriter#invalidateStatistics}.
 */
final class DataPageWriter {
  private static final ParquetMetadataConverter CONVERTER = new ParquetMetadataConverter();

  private final ParquetFileWriter writer;
  private final ColumnDescriptor descriptor;
  private final Statistics<?> emptyStatistics;

  DataPageWriter(ParquetFileWriter writer, ColumnDescriptor descriptor) {
    this.writer = requireNonNull(writer, "writer is null");
    this.descriptor = requireNonNull(descriptor, "descriptor is null");
    this.emptyStatistics = ChunkStatistics.none(descriptor.getPrimitiveType());
  }

  static Encoding valuesEncoding(ParsedPage page) {
    if (page.header().getType() == PageType.DATA_PAGE_V2) {
      return CONVERTER.getEncoding(page.header().getData_page_header_v2().getEncoding());
    }
    return CONVERTER.getEncoding(page.header().getData_page_header().getEncoding());
  }

  static Encoding encoding(org.apache.parquet.format.Encoding encoding) {
    return CONVERTER.getEncoding(encoding);
  }

  /** Copies a page's bytes unchanged. */
  void writeVerbatim(ParsedPage page) throws IOException {
    byte[] bytes = page.bytes();
    if (page.header().getType() == PageType.DATA_PAGE_V2) {
      DataPageHeaderV2 header = page.header().getData_page_header_v2();
      int levelsLength =
          header.getRepetition_levels_byte_length() + header.getDefinition_levels_byte_length();
      writeV2(
          header,
          bytes,
          page.dataOffset(),
          encoding(header.getEncoding()),
          BytesInput.from(
              bytes, page.dataOffset() + levelsLength, page.compressedSize() - levelsLength),
          page.uncompressedSize() - levelsLength);
    } else {
      DataPageHeader header = page.header().getData_page_header();
      writeV1(
          header,
          BytesInput.from(bytes, page.dataOffset(), page.compressedSize()),
          page.uncompressedSize(),
          encoding(header.getEncoding()));
    }
  }

  void writeV1(
      DataPageHeader header, BytesInput body, int uncompressedSize, Encoding valuesEncoding)
      throws IOException {
    int valueCount = header.getNum_values();
    Encoding repetitionEncoding = encoding(header.getRepetition_level_encoding());
    Encoding definitionEncoding = encoding(header.getDefinition_level_encoding());
    if (descriptor.getMaxRepetitionLevel() == 0) {
      writer.writeDataPage(
          valueCount,
          uncompressedSize,
          body,
          emptyStatistics,
          valueCount,
          repetitionEncoding,
          definitionEncoding,
          valuesEncoding);
    } else {
      // The row count of a v1 page with repetition is unknown without decoding its levels; the
      // writer then omits the offset index of this chunk.
      writeV1WithoutRowCount(
          valueCount,
          uncompressedSize,
          body,
          repetitionEncoding,
          definitionEncoding,
          valuesEncoding);
    }
  }

  /**
   * Writes a v1 page of a flat column whose body (definition levels when the column is optional,
   * then the values) was built anew: one row per value.
   */
  void writeFiltered(int valueCount, BytesInput body, int uncompressedSize, Encoding valuesEncoding)
      throws IOException {
    writer.writeDataPage(
        valueCount,
        uncompressedSize,
        body,
        emptyStatistics,
        valueCount,
        Encoding.BIT_PACKED,
        descriptor.getMaxDefinitionLevel() > 0 ? Encoding.RLE : Encoding.BIT_PACKED,
        valuesEncoding);
  }

  @SuppressWarnings("deprecation")
  private void writeV1WithoutRowCount(
      int valueCount,
      int uncompressedSize,
      BytesInput body,
      Encoding repetitionEncoding,
      Encoding definitionEncoding,
      Encoding valuesEncoding)
      throws IOException {
    writer.writeDataPage(
        valueCount,
        uncompressedSize,
        body,
        emptyStatistics,
        repetitionEncoding,
        definitionEncoding,
        valuesEncoding);
  }

  /**
   * Writes a v2 page whose levels are taken unchanged from {@code levelBytes} at {@code
   * levelsOffset} and whose data section is {@code data}.
   */
  void writeV2(
      DataPageHeaderV2 header,
      byte[] levelBytes,
      int levelsOffset,
      Encoding dataEncoding,
      BytesInput data,
      int uncompressedDataSize)
      throws IOException {
    int repetitionLength = header.getRepetition_levels_byte_length();
    int definitionLength = header.getDefinition_levels_byte_length();
    writer.writeDataPageV2(
        header.getNum_rows(),
        header.getNum_nulls(),
        header.getNum_values(),
        BytesInput.from(levelBytes, levelsOffset, repetitionLength),
        BytesInput.from(levelBytes, levelsOffset + repetitionLength, definitionLength),
        dataEncoding,
        data,
        header.isIs_compressed(),
        uncompressedDataSize,
        emptyStatistics);
  }
}
