package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
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

  /** How to write the indices of a page: remapped into a merged dictionary, or as PLAIN values. */
  interface Target {
    static Target remapped(int[] remap, int bitWidth) {
      DictionaryIdTranscoder transcoder = new DictionaryIdTranscoder(remap, bitWidth);
      return new Target() {
        @Override
        public byte[] write(byte[] page, int offset, int end, int count) throws IOException {
          return transcoder.transcode(page, offset, end, count);
        }

        @Override
        public byte[] plainValues(int[] ids, int count) {
          throw new UnsupportedOperationException("Remapped ids stay dictionary-encoded");
        }

        @Override
        public int remapInPlace(int[] ids, int count) throws IOException {
          return transcoder.remapInPlace(ids, count);
        }

        @Override
        public Encoding encoding(Encoding original) {
          return original;
        }
      };
    }

    static Target plain(DictionaryValues dictionary) {
      requireNonNull(dictionary, "dictionary is null");
      return new Target() {
        @Override
        public byte[] write(byte[] page, int offset, int end, int count) throws IOException {
          return DictionaryIndices.writePlain(
              DictionaryIndices.read(page, offset, end, count), dictionary);
        }

        @Override
        public byte[] plainValues(int[] ids, int count) throws IOException {
          return DictionaryIndices.writePlain(Arrays.copyOf(ids, count), dictionary);
        }

        @Override
        public int remapInPlace(int[] ids, int count) {
          throw new UnsupportedOperationException("Ids expanded to PLAIN have no merged ids");
        }

        @Override
        public Encoding encoding(Encoding original) {
          return Encoding.PLAIN;
        }
      };
    }

    /** The values section for the {@code count} dictionary ids in {@code page[offset, end)}. */
    byte[] write(byte[] page, int offset, int end, int count) throws IOException;

    /**
     * Dictionary ids {@code ids[0, count)} of the page's own dictionary as PLAIN values; only for
     * targets that expand to PLAIN.
     */
    byte[] plainValues(int[] ids, int count) throws IOException;

    /**
     * Replaces ids {@code ids[0, count)} of the page's dictionary by their merged ids and returns
     * the merged dictionary's bit width; only for targets that keep dictionary encoding.
     */
    int remapInPlace(int[] ids, int count) throws IOException;

    Encoding encoding(Encoding original);
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
    byte[] values = target.write(body, position, body.length, nonNullCount);
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
            : Arrays.copyOfRange(bytes, dataOffset, dataOffset + dataLength);
    byte[] values =
        target.write(data, 0, data.length, header.getNum_values() - header.getNum_nulls());
    byte[] stored = header.isIs_compressed() ? compression.compress(values) : values;
    Encoding encoding = target.encoding(DataPageWriter.encoding(header.getEncoding()));
    pageWriter.writeV2(
        header, bytes, page.dataOffset(), encoding, BytesInput.from(stored), values.length);
  }

  private int countDefined(byte[] body, int offset, int length, int valueCount) throws IOException {
    int maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
    return DefinedValueCount.of(
        body,
        offset,
        offset + length,
        BytesUtils.getWidthFromMaxInt(maxDefinitionLevel),
        valueCount,
        maxDefinitionLevel);
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
