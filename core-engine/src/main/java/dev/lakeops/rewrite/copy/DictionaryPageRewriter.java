package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.PageType;

/**
 * Rewrites one dictionary-encoded data page: decompresses it, keeps its levels, and writes its
 * dictionary indices either remapped into a merged dictionary (same encoding) or expanded to PLAIN
 * values, then recompresses with the same codec. Data values are never decoded.
 */
final class DictionaryPageRewriter {
  private final DataPageWriter pageWriter;
  private final PageCompression compression;
  private final ColumnDescriptor descriptor;

  DictionaryPageRewriter(
      DataPageWriter pageWriter, PageCompression compression, ColumnDescriptor descriptor) {
    this.pageWriter = requireNonNull(pageWriter, "pageWriter is null");
    this.compression = requireNonNull(compression, "compression is null");
    this.descriptor = requireNonNull(descriptor, "descriptor is null");
  }

  /** How to write the indices of a page: remapped ({@code remap} set) or as PLAIN values. */
  record Target(int[] remap, int bitWidth, DictionaryValues dictionary) {
    static Target remapped(int[] remap, int bitWidth) {
      return new Target(requireNonNull(remap, "remap is null"), bitWidth, null);
    }

    static Target plain(DictionaryValues dictionary) {
      return new Target(null, 0, requireNonNull(dictionary, "dictionary is null"));
    }

    byte[] write(int[] indices) throws IOException {
      return remap != null
          ? DictionaryIndices.writeRemapped(indices, remap, bitWidth)
          : DictionaryIndices.writePlain(indices, dictionary);
    }

    Encoding encoding(Encoding original) {
      return remap != null ? original : Encoding.PLAIN;
    }
  }

  void rewrite(ParsedPage page, Target target) throws IOException {
    byte[] bytes = page.bytes();
    if (page.header().getType() == PageType.DATA_PAGE_V2) {
      rewriteV2(page, bytes, target);
    } else {
      rewriteV1(page, bytes, target);
    }
  }

  private void rewriteV1(ParsedPage page, byte[] bytes, Target target) throws IOException {
    DataPageHeader header = page.header().getData_page_header();
    byte[] body =
        compression.decompress(
            bytes, page.dataOffset(), page.compressedSize(), page.uncompressedSize());
    int position = 0;
    if (descriptor.getMaxRepetitionLevel() > 0) {
      requireRle(header.getRepetition_level_encoding(), "repetition");
      position += 4 + BytesUtils.readIntLittleEndian(body, position);
    }
    int nonNullCount = header.getNum_values();
    if (descriptor.getMaxDefinitionLevel() > 0) {
      requireRle(header.getDefinition_level_encoding(), "definition");
      int length = BytesUtils.readIntLittleEndian(body, position);
      nonNullCount = countDefined(body, position + 4, length, header.getNum_values());
      position += 4 + length;
    }
    int[] indices = DictionaryIndices.read(body, position, body.length, nonNullCount);
    byte[] values = target.write(indices);
    byte[] rewritten = new byte[position + values.length];
    System.arraycopy(body, 0, rewritten, 0, position);
    System.arraycopy(values, 0, rewritten, position, values.length);
    byte[] compressed = compression.compress(rewritten);
    Encoding encoding = target.encoding(DataPageWriter.encoding(header.getEncoding()));
    pageWriter.writeV1(header, BytesInput.from(compressed), rewritten.length, encoding);
  }

  private void rewriteV2(ParsedPage page, byte[] bytes, Target target) throws IOException {
    DataPageHeaderV2 header = page.header().getData_page_header_v2();
    int levelsLength =
        header.getRepetition_levels_byte_length() + header.getDefinition_levels_byte_length();
    int dataOffset = page.dataOffset() + levelsLength;
    int dataLength = page.compressedSize() - levelsLength;
    int uncompressedDataLength = page.uncompressedSize() - levelsLength;
    byte[] data =
        header.isIs_compressed()
            ? compression.decompress(bytes, dataOffset, dataLength, uncompressedDataLength)
            : java.util.Arrays.copyOfRange(bytes, dataOffset, dataOffset + dataLength);
    int[] indices =
        DictionaryIndices.read(
            data, 0, data.length, header.getNum_values() - header.getNum_nulls());
    byte[] values = target.write(indices);
    byte[] stored = header.isIs_compressed() ? compression.compress(values) : values;
    Encoding encoding = target.encoding(DataPageWriter.encoding(header.getEncoding()));
    pageWriter.writeV2(
        header, bytes, page.dataOffset(), encoding, BytesInput.from(stored), values.length);
  }

  private int countDefined(byte[] body, int offset, int length, int valueCount) throws IOException {
    int maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
    RunLengthBitPackingHybridDecoder decoder =
        new RunLengthBitPackingHybridDecoder(
            BytesUtils.getWidthFromMaxInt(maxDefinitionLevel),
            new ByteArrayInputStream(body, offset, length));
    int defined = 0;
    for (int index = 0; index < valueCount; index++) {
      if (decoder.readInt() == maxDefinitionLevel) {
        defined++;
      }
    }
    return defined;
  }

  private void requireRle(org.apache.parquet.format.Encoding encoding, String levels)
      throws IOException {
    if (encoding != org.apache.parquet.format.Encoding.RLE) {
      throw new IOException(
          "Column "
              + String.join(".", descriptor.getPath())
              + " has "
              + levels
              + " levels encoded as "
              + encoding
              + "; only RLE levels can be rewritten");
    }
  }
}
