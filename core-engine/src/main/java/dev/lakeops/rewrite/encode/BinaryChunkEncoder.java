package dev.lakeops.rewrite.encode;

import java.util.Arrays;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Encodes BINARY columns (strings and binaries) from Arrow variable-width vectors. Min and max
 * compare as unsigned bytes, the order Parquet gives strings and binaries.
 */
final class BinaryChunkEncoder extends ColumnChunkEncoder {
  private BinaryDictionary dictionary;
  private int previousOffset = -1;
  private int previousLength;
  private int previousId;

  /** Per dictionary id, the last page it was seen in (by {@link #pagesStarted}). */
  private int[] idLastPage = new int[0];

  private int pagesStarted = 1;

  BinaryChunkEncoder(
      ColumnDescriptor column,
      PageWriter pageWriter,
      PageLimits limits,
      boolean dictionaryEnabled) {
    super(column, pageWriter, limits, dictionaryEnabled);
    if (column.getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY) {
      throw new IllegalArgumentException(
          "Column " + name() + " of type " + column.getPrimitiveType() + " is not BINARY");
    }
    this.dictionary = dictionaryEnabled ? new BinaryDictionary() : null;
  }

  @Override
  int appendValues(FieldVector vector, long validity, int fromRow, int rowCount) {
    long offsets = vector.getOffsetBuffer().memoryAddress();
    long data = vector.getDataBuffer().memoryAddress();
    long dataEnd = data + vector.getDataBuffer().capacity();
    int appended = 0;
    for (int row = fromRow; row < fromRow + rowCount; row++) {
      if (validity == 0 || ((MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1) != 0) {
        long offset = offsets + (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
        int start = MemoryUtil.getInt(offset);
        int length = MemoryUtil.getInt(offset + BaseVariableWidthVector.OFFSET_WIDTH) - start;
        values.putLengthPrefixed(data + start, length, dataEnd - (data + start));
        appended++;
      }
    }
    return appended;
  }

  @Override
  void assignIds(int fromOffset, int[] target, int fromIndex, int count) {
    byte[] page = values.array();
    int offset = fromOffset;
    for (int index = fromIndex; index < fromIndex + count; index++) {
      int length = values.intAt(offset);
      int start = offset + Integer.BYTES;
      if (previousOffset < 0
          || length != previousLength
          || !ByteRanges.equal(page, start, page, previousOffset, length)) {
        previousId = dictionary.idOf(page, start, length);
      }
      previousOffset = start;
      previousLength = length;
      target[index] = previousId;
      offset = start + length;
    }
  }

  @Override
  long dictionaryPlainBytes() {
    return dictionary == null ? 0 : dictionary.plainBytes();
  }

  @Override
  int dictionarySize() {
    return dictionary == null ? 0 : dictionary.size();
  }

  @Override
  void writeDictionary(PageBytes page) {
    dictionary.writePlain(page);
  }

  @Override
  void releaseDictionary() {
    dictionary = null;
    previousOffset = -1;
  }

  @Override
  void startPage() {
    previousOffset = -1;
    pagesStarted++;
  }

  /** Min and max compared over the page's distinct dictionary values, not over every value. */
  @Override
  Statistics<?> dictionaryPageStatistics(int[] ids, int count) {
    BinaryStatistics statistics =
        (BinaryStatistics) Statistics.createStats(column().getPrimitiveType());
    if (count == 0) {
      return statistics;
    }
    if (idLastPage.length < dictionary.size()) {
      idLastPage = Arrays.copyOf(idLastPage, Math.max(dictionary.size(), 2 * idLastPage.length));
    }
    byte[] held = dictionary.array();
    int min = ids[0];
    int max = min;
    idLastPage[min] = pagesStarted;
    for (int index = 1; index < count; index++) {
      int id = ids[index];
      if (idLastPage[id] == pagesStarted) {
        continue;
      }
      idLastPage[id] = pagesStarted;
      int start = dictionary.start(id);
      int length = dictionary.length(id);
      if (ByteRanges.compareUnsigned(
              held, start, length, held, dictionary.start(min), dictionary.length(min))
          < 0) {
        min = id;
      } else if (ByteRanges.compareUnsigned(
              held, start, length, held, dictionary.start(max), dictionary.length(max))
          > 0) {
        max = id;
      }
    }
    statistics.updateStats(dictionaryValue(min));
    statistics.updateStats(dictionaryValue(max));
    return statistics;
  }

  private Binary dictionaryValue(int id) {
    int start = dictionary.start(id);
    return Binary.fromConstantByteArray(
        Arrays.copyOfRange(dictionary.array(), start, start + dictionary.length(id)));
  }

  @Override
  long unencodedValueBytes(int valueCount) {
    return values.size() - (long) Integer.BYTES * valueCount;
  }

  @Override
  Statistics<?> valueStatistics() {
    BinaryStatistics statistics =
        (BinaryStatistics) Statistics.createStats(column().getPrimitiveType());
    int end = values.size();
    if (end == 0) {
      return statistics;
    }
    byte[] page = values.array();
    int minStart = Integer.BYTES;
    int minLength = values.intAt(0);
    int maxStart = minStart;
    int maxLength = minLength;
    for (int offset = Integer.BYTES + minLength; offset < end; ) {
      int length = values.intAt(offset);
      int start = offset + Integer.BYTES;
      if (ByteRanges.compareUnsigned(page, start, length, page, minStart, minLength) < 0) {
        minStart = start;
        minLength = length;
      } else if (ByteRanges.compareUnsigned(page, start, length, page, maxStart, maxLength) > 0) {
        maxStart = start;
        maxLength = length;
      }
      offset = start + length;
    }
    statistics.updateStats(
        Binary.fromConstantByteArray(Arrays.copyOfRange(page, minStart, minStart + minLength)));
    statistics.updateStats(
        Binary.fromConstantByteArray(Arrays.copyOfRange(page, maxStart, maxStart + maxLength)));
    return statistics;
  }
}
