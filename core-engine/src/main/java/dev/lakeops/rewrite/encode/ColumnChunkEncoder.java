package dev.lakeops.rewrite.encode;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.codec.HybridRunCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;

/**
 * Encodes one flat column of one row group into Parquet data pages (v1), as parquet-java's column
 * writer does but a page at a time instead of a value at a time: the values of the Arrow vectors
 * handed to {@link #write} are copied into the page as PLAIN bytes (one bulk copy where a stretch
 * has no nulls), and, while the chunk is dictionary-encoded, given dictionary ids; definition
 * levels come from the validity bits. Page statistics (min, max, null count) are computed once per
 * page over its values. Pages go to a parquet-java {@link PageWriter}, which compresses them and
 * keeps the chunk statistics and the column and offset indexes.
 *
 * <p>The dictionary rules are parquet-java's: a chunk starts dictionary-encoded (unless told not
 * to), falls back to PLAIN for the rest of the chunk once the dictionary's PLAIN size passes the
 * limit, or at its first page if the dictionary does not make that page smaller; the dictionary
 * page is written if any data page used it.
 */
public abstract sealed class ColumnChunkEncoder permits FixedWidthChunkEncoder, BinaryChunkEncoder {
  private static final int ROWS_PER_STEP = 1024;
  private static final GeospatialStatistics NO_GEOSPATIAL_STATISTICS =
      GeospatialStatistics.noopBuilder().build();

  private final ColumnDescriptor column;
  private final PageWriter pageWriter;
  private final PageLimits limits;
  private final boolean optional;

  /** The page's non-null values, PLAIN-encoded, whatever the page's encoding. */
  final PageBytes values;

  private final int[] definitionLevels;
  private final int[] ids;
  private final ByteArrayOutputStream encoded = new ByteArrayOutputStream();
  private final ByteArrayOutputStream levels = new ByteArrayOutputStream();
  private int pageRows;
  private int pageNulls;
  private int pageValues;
  private boolean dictionaryEncoding;
  private boolean dictionaryUsed;
  private boolean pageWritten;

  ColumnChunkEncoder(
      ColumnDescriptor column,
      PageWriter pageWriter,
      PageLimits limits,
      boolean dictionaryEnabled) {
    this.column = requireNonNull(column, "column is null");
    this.pageWriter = requireNonNull(pageWriter, "pageWriter is null");
    this.limits = requireNonNull(limits, "limits is null");
    if (column.getMaxRepetitionLevel() != 0 || column.getMaxDefinitionLevel() > 1) {
      throw new IllegalArgumentException(
          "Column " + Arrays.toString(column.getPath()) + " is not a flat column");
    }
    this.optional = column.getMaxDefinitionLevel() == 1;
    this.values = new PageBytes(64 * 1024);
    int rowsRoundedUp = (limits.pageRowLimit() + 7) & ~7;
    this.definitionLevels = optional ? new int[rowsRoundedUp] : new int[0];
    this.ids = dictionaryEnabled ? new int[rowsRoundedUp] : new int[0];
    this.dictionaryEncoding = dictionaryEnabled;
  }

  /** Appends rows {@code [0, rowCount)} of {@code vector}. */
  public final void write(FieldVector vector, int rowCount) {
    boolean noNulls = vector.getNullCount() == 0;
    if (!optional && !noNulls) {
      throw new IllegalStateException("Required column " + name() + " holds a null value");
    }
    long validity = noNulls ? 0 : vector.getValidityBuffer().memoryAddress();
    int row = 0;
    while (row < rowCount) {
      int step =
          Math.min(Math.min(rowCount - row, ROWS_PER_STEP), limits.pageRowLimit() - pageRows);
      if (optional) {
        recordDefinitionLevels(validity, row, step);
      }
      int valuesBefore = pageValues;
      int offsetBefore = values.size();
      pageValues += appendValues(vector, validity, row, step);
      pageRows += step;
      if (dictionaryEncoding) {
        assignIds(offsetBefore, ids, valuesBefore, pageValues - valuesBefore);
        if (dictionaryPlainBytes() > limits.dictionarySizeBytes()) {
          fallBackToPlain();
        }
      }
      row += step;
      if (pageRows >= limits.pageRowLimit() || pageEncodedBytes() >= limits.pageSizeBytes()) {
        writePage();
      }
    }
  }

  /** Writes the last page and the dictionary page, if any; the chunk is complete after this. */
  public final void finish() {
    writePage();
    if (dictionaryEncoding && dictionaryUsed) {
      writeDictionaryPage();
    }
    dictionaryEncoding = false;
    releaseDictionary();
  }

  /** Bytes this chunk will add to the row group: pages written so far and the current page. */
  public final long bufferedBytes() {
    return pageWriter.getMemSize() + pageEncodedBytes();
  }

  /**
   * Appends the non-null values among rows {@code [fromRow, fromRow + rowCount)} of {@code vector}
   * to {@link #values}, PLAIN-encoded; {@code validity} is 0 when the vector has no nulls.
   *
   * @return how many values were appended
   */
  abstract int appendValues(FieldVector vector, long validity, int fromRow, int rowCount);

  /** Gives the {@code count} values at byte {@code fromOffset} of {@link #values} their ids. */
  abstract void assignIds(int fromOffset, int[] target, int fromIndex, int count);

  /** The dictionary's size PLAIN-encoded. */
  abstract long dictionaryPlainBytes();

  abstract int dictionarySize();

  /** Appends the dictionary PLAIN-encoded to {@code page}. */
  abstract void writeDictionary(PageBytes page);

  abstract void releaseDictionary();

  /** Statistics over the page's {@link #values}, nulls not yet counted. */
  abstract Statistics<?> valueStatistics();

  /**
   * Statistics of a dictionary-encoded page whose values have dictionary ids {@code ids[0, count)},
   * nulls not yet counted; the same as {@link #valueStatistics()}, which this default computes.
   */
  Statistics<?> dictionaryPageStatistics(int[] ids, int count) {
    return valueStatistics();
  }

  /**
   * Bytes of the page's {@code valueCount} values without length prefixes, for BINARY columns; else
   * 0.
   */
  abstract long unencodedValueBytes(int valueCount);

  /** Forgets the previous value, at the start of a page. */
  abstract void startPage();

  final String name() {
    return String.join(".", column.getPath());
  }

  final ColumnDescriptor column() {
    return column;
  }

  private void recordDefinitionLevels(long validity, int fromRow, int rowCount) {
    int target = pageRows;
    if (validity == 0) {
      Arrays.fill(definitionLevels, target, target + rowCount, 1);
      return;
    }
    int nulls = 0;
    for (int row = fromRow; row < fromRow + rowCount; row++) {
      int level = (MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1;
      definitionLevels[target++] = level;
      nulls += level ^ 1;
    }
    pageNulls += nulls;
  }

  private long pageEncodedBytes() {
    return dictionaryEncoding ? (long) pageValues * Integer.BYTES : values.size();
  }

  private void fallBackToPlain() {
    dictionaryEncoding = false;
    if (dictionaryUsed) {
      writeDictionaryPage();
    }
    releaseDictionary();
  }

  private void writePage() {
    if (pageRows == 0) {
      return;
    }
    try {
      BytesInput pageValuesBytes = null;
      if (dictionaryEncoding) {
        BytesInput dictionaryIds = dictionaryIds();
        if (!pageWritten && dictionaryIds.size() + dictionaryPlainBytes() >= values.size()) {
          fallBackToPlain();
        } else {
          pageValuesBytes = dictionaryIds;
        }
      }
      Encoding valuesEncoding = dictionaryEncoding ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
      if (pageValuesBytes == null) {
        pageValuesBytes = values.asBytesInput();
      }
      Statistics<?> statistics =
          dictionaryEncoding ? dictionaryPageStatistics(ids, pageValues) : valueStatistics();
      statistics.incrementNumNulls(pageNulls);
      SizeStatistics sizeStatistics =
          new SizeStatistics(
              column.getPrimitiveType(),
              unencodedValueBytes(pageValues),
              new ArrayList<>(),
              new ArrayList<>());
      pageWriter.writePage(
          BytesInput.concat(
              optional ? definitionLevelBytes() : BytesInput.empty(), pageValuesBytes),
          pageRows,
          pageRows,
          statistics,
          sizeStatistics,
          NO_GEOSPATIAL_STATISTICS,
          Encoding.BIT_PACKED,
          optional ? Encoding.RLE : Encoding.BIT_PACKED,
          valuesEncoding);
      dictionaryUsed |= dictionaryEncoding;
      pageWritten = true;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write a page of column " + name(), e);
    }
    pageRows = 0;
    pageNulls = 0;
    pageValues = 0;
    values.reset();
    startPage();
  }

  /** The page's dictionary ids: their bit width in one byte, then RLE/bit-packed runs. */
  private BytesInput dictionaryIds() {
    int bitWidth = 32 - Integer.numberOfLeadingZeros(Math.max(0, dictionarySize() - 1));
    Arrays.fill(ids, pageValues, (pageValues + 7) & ~7, 0);
    encoded.reset();
    encoded.write(bitWidth);
    HybridRunCodec.encode(ids, pageValues, bitWidth, encoded);
    return BytesInput.from(encoded);
  }

  /** Definition levels of a v1 page: their byte length (4 bytes), then RLE/bit-packed runs. */
  private BytesInput definitionLevelBytes() {
    levels.reset();
    Arrays.fill(definitionLevels, pageRows, (pageRows + 7) & ~7, 0);
    HybridRunCodec.encode(definitionLevels, pageRows, 1, levels);
    return BytesInput.concat(BytesInput.fromInt(levels.size()), BytesInput.from(levels));
  }

  private void writeDictionaryPage() {
    PageBytes page = new PageBytes((int) Math.min(Integer.MAX_VALUE - 8, dictionaryPlainBytes()));
    writeDictionary(page);
    try {
      pageWriter.writeDictionaryPage(
          new DictionaryPage(page.asBytesInput(), dictionarySize(), Encoding.PLAIN_DICTIONARY));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the dictionary page of column " + name(), e);
    }
  }
}
