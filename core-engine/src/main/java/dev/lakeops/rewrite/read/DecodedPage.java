package dev.lakeops.rewrite.read;

import dev.lakeops.rewrite.codec.HybridRunCodec;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;

/**
 * One data page of a flat column, its levels and dictionary ids decoded: the definition level of
 * every entry ({@code null} when every entry holds a value) and either the PLAIN values (from
 * {@code valuesStart} in {@code values}) or the dictionary id of every value. Levels and ids are
 * decoded into the column's {@link PageDecodeBuffers}, so the arrays may be longer than the page
 * and are only valid until the column's next page is decoded.
 *
 * @param entries entries (values and nulls) in the page
 * @param definitions definition level per entry, or {@code null} when none is null
 * @param values an array holding the page's bytes from index 0 (it may be longer: a column's pages
 *     decompress into one array, reused from page to page)
 * @param valuesStart where the first PLAIN value starts in {@code values}
 * @param valuesEnd where the page's bytes end in {@code values}
 * @param ids dictionary id per non-null value, or {@code null} for a PLAIN page
 */
record DecodedPage(
    int entries, int[] definitions, byte[] values, int valuesStart, int valuesEnd, int[] ids) {
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  static DecodedPage of(
      DataPage page, ColumnDescriptor column, boolean hasDictionary, PageDecodeBuffers buffers)
      throws IOException {
    if (page instanceof DataPageV1 v1) {
      return ofV1(v1, column, hasDictionary, buffers);
    }
    if (page instanceof DataPageV2 v2) {
      return ofV2(v2, column, hasDictionary, buffers);
    }
    throw new IOException("Unknown data page " + page);
  }

  private static DecodedPage ofV1(
      DataPageV1 page, ColumnDescriptor column, boolean hasDictionary, PageDecodeBuffers buffers)
      throws IOException {
    PageArray array = PageArray.of(page.getBytes());
    byte[] bytes = array.bytes();
    int end = array.end();
    int entries = page.getValueCount();
    int maxDefinition = column.getMaxDefinitionLevel();
    int[] definitions = null;
    int position = 0;
    if (maxDefinition > 0) {
      int bitWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
      if (page.getDlEncoding() == Encoding.RLE) {
        int length = (int) INTS.get(bytes, 0);
        if (length < 0 || 4 + length > end) {
          throw new IOException("Definition levels of " + length + " bytes run past their page");
        }
        definitions = buffers.levels(entries);
        HybridRunCodec.decodeInto(bytes, 4, 4 + length, bitWidth, entries, definitions);
        position = 4 + length;
      } else if (page.getDlEncoding() == Encoding.BIT_PACKED) {
        definitions = bitPackedLevels(bytes, end, bitWidth, entries);
        position = (int) (((long) entries * bitWidth + 7) / 8);
      } else {
        throw new IOException("Unsupported definition level encoding " + page.getDlEncoding());
      }
    }
    return withValues(
        entries,
        definitions,
        maxDefinition,
        page.getValueEncoding(),
        bytes,
        position,
        end,
        hasDictionary,
        buffers);
  }

  private static DecodedPage ofV2(
      DataPageV2 page, ColumnDescriptor column, boolean hasDictionary, PageDecodeBuffers buffers)
      throws IOException {
    if (page.isCompressed()) {
      throw new IOException("Data page v2 was not decompressed");
    }
    int entries = page.getValueCount();
    int maxDefinition = column.getMaxDefinitionLevel();
    int[] definitions = null;
    if (maxDefinition > 0) {
      byte[] levels = page.getDefinitionLevels().toByteArray();
      definitions = buffers.levels(entries);
      HybridRunCodec.decodeInto(
          levels,
          0,
          levels.length,
          BytesUtils.getWidthFromMaxInt(maxDefinition),
          entries,
          definitions);
    }
    PageArray data = PageArray.of(page.getData());
    return withValues(
        entries,
        definitions,
        maxDefinition,
        page.getDataEncoding(),
        data.bytes(),
        0,
        data.end(),
        hasDictionary,
        buffers);
  }

  /**
   * A page's bytes: {@code bytes} from index 0 to {@code end}, the array itself where the input is
   * an array from its start (a page the zstd decompressor produced), else a copy.
   */
  private record PageArray(byte[] bytes, int end) {
    static PageArray of(BytesInput input) throws IOException {
      ByteBuffer buffer = input.toByteBuffer();
      if (buffer.hasArray() && buffer.arrayOffset() == 0 && buffer.position() == 0) {
        return new PageArray(buffer.array(), buffer.remaining());
      }
      byte[] copy = new byte[buffer.remaining()];
      buffer.get(copy);
      return new PageArray(copy, copy.length);
    }
  }

  private static DecodedPage withValues(
      int entries,
      int[] definitions,
      int maxDefinition,
      Encoding encoding,
      byte[] bytes,
      int start,
      int end,
      boolean hasDictionary,
      PageDecodeBuffers buffers)
      throws IOException {
    int nonNull = entries;
    if (definitions != null) {
      nonNull = 0;
      for (int index = 0; index < entries; index++) {
        if (definitions[index] == maxDefinition) {
          nonNull++;
        }
      }
      if (nonNull == entries) {
        definitions = null;
      }
    }
    return switch (encoding) {
      case PLAIN -> new DecodedPage(entries, definitions, bytes, start, end, null);
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
        if (!hasDictionary) {
          throw new IOException("Dictionary-encoded page without a dictionary page");
        }
        if (start >= end && nonNull > 0) {
          throw new IOException("Dictionary-encoded page without ids");
        }
        int bitWidth = nonNull == 0 ? 0 : bytes[start] & 0xFF;
        if (bitWidth > 32) {
          throw new IOException("Dictionary id bit width " + bitWidth + " is over 32");
        }
        int[] ids = buffers.ids(nonNull);
        HybridRunCodec.decodeInto(bytes, start + 1, end, bitWidth, nonNull, ids);
        yield new DecodedPage(entries, definitions, bytes, start, end, ids);
      }
      default -> throw new IOException("Unsupported value encoding " + encoding);
    };
  }

  /** Parquet's deprecated BIT_PACKED levels: most significant bit first, no length prefix. */
  private static int[] bitPackedLevels(byte[] bytes, int end, int bitWidth, int entries)
      throws IOException {
    if (((long) entries * bitWidth + 7) / 8 > end) {
      throw new IOException("Bit-packed definition levels run past their page");
    }
    int[] levels = new int[entries];
    long bit = 0;
    for (int index = 0; index < entries; index++) {
      int level = 0;
      for (int part = 0; part < bitWidth; part++, bit++) {
        int value = (bytes[(int) (bit >>> 3)] >>> (7 - (bit & 7))) & 1;
        level = (level << 1) | value;
      }
      levels[index] = level;
    }
    return levels;
  }

  /** Values (entries that are not null) in the page. */
  int valueCount(int maxDefinition) {
    if (definitions == null) {
      return entries;
    }
    int count = 0;
    for (int index = 0; index < entries; index++) {
      if (definitions[index] == maxDefinition) {
        count++;
      }
    }
    return count;
  }

  boolean defined(int entry, int maxDefinition) {
    return definitions == null || definitions[entry] == maxDefinition;
  }
}
