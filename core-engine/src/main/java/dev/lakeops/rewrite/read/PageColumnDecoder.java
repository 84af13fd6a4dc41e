package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.codec.ShortValueCopy;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Decodes one flat column chunk page by page straight into Arrow vectors, without Parquet's
 * value-by-value column reader: PLAIN fixed-width values are copied in bulk when no row of the
 * stretch is null or deleted, dictionary ids are unpacked a page at a time, and every cell is
 * written by memory address into buffers sized beforehand. Chunks with encodings it does not know
 * (DELTA_*, BYTE_STREAM_SPLIT, ...) are left to Parquet's column reader ({@link #decodes}).
 */
final class PageColumnDecoder {
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final Set<Encoding> ENCODINGS =
      Set.of(
          Encoding.PLAIN,
          Encoding.PLAIN_DICTIONARY,
          Encoding.RLE_DICTIONARY,
          Encoding.RLE,
          Encoding.BIT_PACKED);

  private final PageReader pages;
  private final ColumnDescriptor column;
  private final PageValueKind kind;
  private final int maxDefinition;
  private final PageDictionary dictionary;
  private final PageDecodeBuffers buffers;
  private final Consumer<PageDecodeBuffers> decompressInto;
  private DecodedPage page;
  private int entry;
  private int value;
  private int plainPosition;

  /**
   * @param buffers the arrays this column's pages decode into, this decoder's alone while it reads
   * @param decompressInto names the buffers the pages read next decompress into ({@code null}: new
   *     arrays); called with this column's buffers just before each data page is read, with {@code
   *     null} right after
   */
  PageColumnDecoder(
      PageReader pages,
      ColumnDescriptor column,
      PageValueKind kind,
      PageDecodeBuffers buffers,
      Consumer<PageDecodeBuffers> decompressInto)
      throws IOException {
    this.pages = requireNonNull(pages, "pages is null");
    this.buffers = requireNonNull(buffers, "buffers is null");
    this.decompressInto = requireNonNull(decompressInto, "decompressInto is null");
    this.column = requireNonNull(column, "column is null");
    this.kind = requireNonNull(kind, "kind is null");
    this.maxDefinition = column.getMaxDefinitionLevel();
    DictionaryPage dictionaryPage = pages.readDictionaryPage();
    this.dictionary = dictionaryPage == null ? null : PageDictionary.of(dictionaryPage, kind);
  }

  /**
   * Whether this decoder reads {@code chunk}: a flat column whose pages use only encodings it
   * knows.
   */
  static boolean decodes(ColumnChunkMetaData chunk, ColumnDescriptor column) {
    return column.getMaxRepetitionLevel() == 0
        && column.getMaxDefinitionLevel() <= 1
        && ENCODINGS.containsAll(chunk.getEncodings());
  }

  /**
   * Reads the next {@code rows} rows into {@code vector} from row 0, leaving out those {@code
   * deleted} marks ({@code null}: none). The vector must have been allocated for the rows kept.
   */
  void read(FieldVector vector, int rows, boolean[] deleted) throws IOException {
    int target = 0;
    int row = 0;
    while (row < rows) {
      int count = Math.min(rows - row, availableEntries());
      target =
          kind == PageValueKind.BINARY
              ? readVariableWidth((BaseVariableWidthVector) vector, row, count, deleted, target)
              : readFixedWidth((BaseFixedWidthVector) vector, row, count, deleted, target);
      row += count;
    }
    if (vector instanceof BaseVariableWidthVector variable) {
      variable.setLastSet(target - 1);
    }
  }

  /** Passes over the next {@code rows} rows. */
  void skip(int rows) throws IOException {
    int row = 0;
    while (row < rows) {
      int count = Math.min(rows - row, availableEntries());
      for (int index = 0; index < count; index++, entry++) {
        if (page.defined(entry, maxDefinition)) {
          if (kind == PageValueKind.BINARY && page.ids() == null) {
            plainPosition += 4 + plainLength(plainPosition);
          }
          value++;
        }
      }
      row += count;
    }
  }

  private int availableEntries() throws IOException {
    if (page == null || entry == page.entries()) {
      // the page before is consumed: the next may take its array
      DataPage next;
      decompressInto.accept(buffers);
      try {
        next = pages.readPage();
      } finally {
        decompressInto.accept(null);
      }
      if (next == null) {
        throw new IOException(
            "Column "
                + String.join(".", column.getPath())
                + " ends before its row group's last row");
      }
      page = DecodedPage.of(next, column, dictionary != null, buffers);
      if (page.ids() == null
          && kind != PageValueKind.BINARY
          && page.valuesStart() + (long) page.valueCount(maxDefinition) * kind.pageWidth()
              > page.valuesEnd()) {
        // checked here, once a page: values are read by index, and the page's array may be longer
        throw new IOException(
            "A page of column "
                + String.join(".", column.getPath())
                + " holds fewer values than its entries");
      }
      entry = 0;
      value = 0;
      plainPosition = page.valuesStart();
    }
    return page.entries() - entry;
  }

  private int readFixedWidth(
      BaseFixedWidthVector vector, int firstRow, int count, boolean[] deleted, int target) {
    long data = vector.getDataBuffer().memoryAddress();
    long validity = vector.getValidityBuffer().memoryAddress();
    if (page.definitions() == null && page.ids() == null && kind.copiesBytes()) {
      return copyLiveRuns(data, validity, firstRow, count, deleted, target);
    }
    for (int index = 0; index < count; index++, entry++) {
      boolean live = deleted == null || !deleted[firstRow + index];
      if (page.defined(entry, maxDefinition)) {
        if (live) {
          writeFixed(data + (long) target * kind.cellWidth(), value);
          setValidBit(validity, target);
        }
        value++;
      }
      if (live) {
        target++;
      }
    }
    return target;
  }

  /**
   * PLAIN values of a page without nulls: each stretch of live rows is copied in one go, the
   * deleted rows between stretches passed over.
   */
  private int copyLiveRuns(
      long data, long validity, int firstRow, int count, boolean[] deleted, int target) {
    int pageWidth = kind.pageWidth();
    int index = 0;
    while (index < count) {
      int liveEnd = index;
      if (deleted == null) {
        liveEnd = count;
      } else {
        while (liveEnd < count && !deleted[firstRow + liveEnd]) {
          liveEnd++;
        }
      }
      int live = liveEnd - index;
      if (live > 0) {
        int from = page.valuesStart() + value * pageWidth;
        int length = live * pageWidth;
        if (from + length > page.valuesEnd()) {
          throw new IllegalStateException("Page values end before entry " + (entry + live));
        }
        MemoryUtil.copyToMemory(
            page.values(), from, data + (long) target * kind.cellWidth(), length);
        setValid(validity, target, live);
        target += live;
      }
      int deletedEnd = liveEnd;
      while (deletedEnd < count && deleted[firstRow + deletedEnd]) {
        deletedEnd++;
      }
      entry += deletedEnd - index;
      value += deletedEnd - index;
      index = deletedEnd;
    }
    return target;
  }

  private void writeFixed(long address, int valueIndex) {
    byte[] source;
    int offset;
    if (page.ids() != null) {
      source = dictionary.bytes();
      offset = dictionary.fixedOffset(page.ids()[valueIndex], kind.pageWidth());
    } else {
      source = page.values();
      offset = page.valuesStart() + valueIndex * kind.pageWidth();
    }
    switch (kind) {
      case INT32, FLOAT -> MemoryUtil.putInt(address, (int) INTS.get(source, offset));
      case INT64, DOUBLE -> MemoryUtil.putLong(address, (long) LONGS.get(source, offset));
      case INT32_AS_INT64 -> MemoryUtil.putLong(address, (int) INTS.get(source, offset));
      case FLOAT_AS_DOUBLE ->
          MemoryUtil.putLong(
              address,
              Double.doubleToRawLongBits(Float.intBitsToFloat((int) INTS.get(source, offset))));
      case BINARY -> throw new IllegalStateException("Binary values are not fixed-width");
    }
  }

  private int readVariableWidth(
      BaseVariableWidthVector vector, int firstRow, int count, boolean[] deleted, int target) {
    long validity = vector.getValidityBuffer().memoryAddress();
    long offsets = vector.getOffsetBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    long capacity = vector.getDataBuffer().capacity();
    int position =
        MemoryUtil.getInt(offsets + (long) target * BaseVariableWidthVector.OFFSET_WIDTH);
    int[] ids = page.ids();
    for (int index = 0; index < count; index++, entry++) {
      boolean live = deleted == null || !deleted[firstRow + index];
      if (page.defined(entry, maxDefinition)) {
        byte[] source;
        int start;
        int length;
        if (ids != null) {
          int id = ids[value];
          source = dictionary.bytes();
          start = dictionary.start(id);
          length = dictionary.length(id);
        } else {
          source = page.values();
          length = plainLength(plainPosition);
          start = plainPosition + 4;
          plainPosition = start + length;
        }
        value++;
        if (live) {
          if (position + (long) length > capacity) {
            while (vector.getDataBuffer().capacity() < position + (long) length) {
              vector.reallocDataBuffer();
            }
            data = vector.getDataBuffer().memoryAddress();
            capacity = vector.getDataBuffer().capacity();
          }
          ShortValueCopy.copyToMemory(source, start, data + position, length, capacity - position);
          position += length;
          setValidBit(validity, target);
        }
      }
      if (live) {
        MemoryUtil.putInt(
            offsets + (long) (target + 1) * BaseVariableWidthVector.OFFSET_WIDTH, position);
        target++;
      }
    }
    return target;
  }

  private int plainLength(int position) {
    int length = (int) INTS.get(page.values(), position);
    if (length < 0 || position + 4 + (long) length > page.valuesEnd()) {
      throw new IllegalStateException("A value of " + length + " bytes runs past its page");
    }
    return length;
  }

  /** Sets the validity bits of rows {@code [firstRow, firstRow + count)}, whole bytes at once. */
  private static void setValid(long validity, int firstRow, int count) {
    int row = firstRow;
    int end = firstRow + count;
    while (row < end && (row & 7) != 0) {
      setValidBit(validity, row++);
    }
    int wholeBytes = (end - row) >>> 3;
    if (wholeBytes > 0) {
      MemoryUtil.setMemory(validity + (row >>> 3), wholeBytes, (byte) 0xFF);
      row += wholeBytes << 3;
    }
    while (row < end) {
      setValidBit(validity, row++);
    }
  }

  private static void setValidBit(long validity, int row) {
    long address = validity + (row >>> 3);
    MemoryUtil.putByte(address, (byte) (MemoryUtil.getByte(address) | (1 << (row & 7))));
  }
}
