package dev.lakeops.rewrite.encode;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.DoubleStatistics;
import org.apache.parquet.column.statistics.FloatStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;

/**
 * Encodes INT32, INT64, FLOAT and DOUBLE columns from Arrow vectors of the same width (ints, dates,
 * longs, times, timestamps, floats, doubles). Ints and longs compare signed, as their Parquet types
 * do; float and double statistics go through parquet-java's own, value by value, so NaN and signed
 * zeros are handled as parquet-java handles them.
 */
final class FixedWidthChunkEncoder extends ColumnChunkEncoder {
  private final int width;
  private LongDictionary dictionary;
  private long previousKey;
  private int previousId = -1;

  FixedWidthChunkEncoder(
      ColumnDescriptor column,
      PageWriter pageWriter,
      PageLimits limits,
      boolean dictionaryEnabled) {
    super(column, pageWriter, limits, dictionaryEnabled);
    this.width =
        switch (column.getPrimitiveType().getPrimitiveTypeName()) {
          case INT32, FLOAT -> Integer.BYTES;
          case INT64, DOUBLE -> Long.BYTES;
          default ->
              throw new IllegalArgumentException(
                  "Column "
                      + name()
                      + " of type "
                      + column.getPrimitiveType()
                      + " is not a fixed-width number");
        };
    this.dictionary = dictionaryEnabled ? new LongDictionary() : null;
  }

  @Override
  int appendValues(FieldVector vector, long validity, int fromRow, int rowCount) {
    long data = vector.getDataBuffer().memoryAddress();
    if (validity == 0) {
      values.putFromMemory(data + (long) fromRow * width, rowCount * width);
      return rowCount;
    }
    int appended = 0;
    for (int row = fromRow; row < fromRow + rowCount; row++) {
      if (((MemoryUtil.getByte(validity + (row >>> 3)) >>> (row & 7)) & 1) != 0) {
        if (width == Long.BYTES) {
          values.putLong(MemoryUtil.getLong(data + (long) row * Long.BYTES));
        } else {
          values.putInt(MemoryUtil.getInt(data + (long) row * Integer.BYTES));
        }
        appended++;
      }
    }
    return appended;
  }

  @Override
  void assignIds(int fromOffset, int[] target, int fromIndex, int count) {
    int offset = fromOffset;
    for (int index = fromIndex; index < fromIndex + count; index++) {
      long key = valueAt(offset);
      if (key != previousKey || previousId < 0) {
        previousKey = key;
        previousId = dictionary.idOf(key);
      }
      target[index] = previousId;
      offset += width;
    }
  }

  @Override
  long dictionaryPlainBytes() {
    return dictionary == null ? 0 : (long) dictionary.size() * width;
  }

  @Override
  int dictionarySize() {
    return dictionary == null ? 0 : dictionary.size();
  }

  @Override
  void writeDictionary(PageBytes page) {
    for (int id = 0; id < dictionary.size(); id++) {
      if (width == Long.BYTES) {
        page.putLong(dictionary.value(id));
      } else {
        page.putInt((int) dictionary.value(id));
      }
    }
  }

  @Override
  void releaseDictionary() {
    dictionary = null;
    previousId = -1;
  }

  @Override
  void startPage() {
    previousId = -1;
  }

  @Override
  long unencodedValueBytes(int valueCount) {
    return 0;
  }

  @Override
  Statistics<?> valueStatistics() {
    Statistics<?> statistics = Statistics.createStats(column().getPrimitiveType());
    int end = values.size();
    if (end == 0) {
      return statistics;
    }
    switch (column().getPrimitiveType().getPrimitiveTypeName()) {
      case INT32, INT64 -> {
        long min = valueAt(0);
        long max = min;
        for (int offset = width; offset < end; offset += width) {
          long value = valueAt(offset);
          min = Math.min(min, value);
          max = Math.max(max, value);
        }
        if (statistics instanceof IntStatistics ints) {
          ints.updateStats((int) min);
          ints.updateStats((int) max);
        } else {
          ((LongStatistics) statistics).updateStats(min);
          ((LongStatistics) statistics).updateStats(max);
        }
      }
      case FLOAT -> {
        FloatStatistics floats = (FloatStatistics) statistics;
        for (int offset = 0; offset < end; offset += Float.BYTES) {
          floats.updateStats(Float.intBitsToFloat(values.intAt(offset)));
        }
      }
      case DOUBLE -> {
        DoubleStatistics doubles = (DoubleStatistics) statistics;
        for (int offset = 0; offset < end; offset += Double.BYTES) {
          doubles.updateStats(Double.longBitsToDouble(values.longAt(offset)));
        }
      }
      default ->
          throw new IllegalStateException(
              "Not a fixed-width number: " + column().getPrimitiveType());
    }
    return statistics;
  }

  /**
   * The value at byte {@code offset} of the page: ints sign-extended, floats and doubles as raw
   * bits.
   */
  private long valueAt(int offset) {
    return width == Long.BYTES ? values.longAt(offset) : values.intAt(offset);
  }
}
