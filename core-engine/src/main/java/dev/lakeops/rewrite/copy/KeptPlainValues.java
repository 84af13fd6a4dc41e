package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesReader;

/**
 * The kept values of one page's values section, written PLAIN into a {@link PageBytes}, their bytes
 * copied and never interpreted: fixed-width values and length-prefixed values in runs of
 * consecutive kept values (one copy per run), booleans one by one, DELTA_LENGTH_BYTE_ARRAY strings
 * with their lengths unpacked, and DELTA_BINARY_PACKED integers unpacked.
 */
final class KeptPlainValues {
  private final byte[] section;
  private final int start;
  private final int end;
  private final int count;
  private final int[] keptValues;
  private final int kept;
  private final String column;

  /**
   * @param section holds the page's uncompressed values section in {@code [start, end)}
   * @param count the values in it
   * @param keptValues ascending indices of the values to keep, {@code kept} of them
   * @param column the column's name, for errors
   */
  KeptPlainValues(
      byte[] section, int start, int end, int count, int[] keptValues, int kept, String column) {
    this.section = requireNonNull(section, "section is null");
    this.start = start;
    this.end = end;
    this.count = count;
    this.keptValues = requireNonNull(keptValues, "keptValues is null");
    this.kept = kept;
    this.column = requireNonNull(column, "column is null");
    if (start < 0 || end > section.length || start > end) {
      throw new IllegalArgumentException(
          "Values section ["
              + start
              + ", "
              + end
              + ") is outside its "
              + section.length
              + " bytes");
    }
  }

  /** Values of {@code width} bytes each, kept runs copied in one go. */
  void writeFixedWidth(int width, PageBytes values) throws IOException {
    if (start + (long) count * width > end) {
      throw new IOException(
          "Column " + column + " has a page shorter than its " + count + " values");
    }
    int index = 0;
    while (index < kept) {
      int runStart = keptValues[index];
      int runEnd = index + 1;
      while (runEnd < kept && keptValues[runEnd] == runStart + (runEnd - index)) {
        runEnd++;
      }
      values.write(section, start + runStart * width, (runEnd - index) * width);
      index = runEnd;
    }
  }

  /**
   * Strings and binaries, each a 4-byte little-endian length and its bytes; consecutive kept values
   * are copied in one go.
   */
  void writeLengthPrefixed(PageBytes values) throws IOException {
    int position = start;
    int next = 0;
    int runStart = -1;
    for (int value = 0; value < count && next < kept; value++) {
      if (position + 4 > end) {
        throw new IOException(
            "Column " + column + " has a page shorter than its " + count + " values");
      }
      int length = BytesUtils.readIntLittleEndian(section, position);
      int valueEnd = position + 4 + length;
      if (length < 0 || valueEnd > end || valueEnd < 0) {
        throw new IOException("Column " + column + " has a value running past its page");
      }
      if (keptValues[next] == value) {
        if (runStart < 0) {
          runStart = position;
        }
        next++;
      } else if (runStart >= 0) {
        values.write(section, runStart, position - runStart);
        runStart = -1;
      }
      position = valueEnd;
    }
    if (runStart >= 0) {
      values.write(section, runStart, position - runStart);
    }
    if (next < kept) {
      throw new IOException(
          "Column " + column + " has a page shorter than its " + count + " values");
    }
  }

  /**
   * DELTA_LENGTH_BYTE_ARRAY values (their lengths delta-packed, then their bytes back to back),
   * kept ones written PLAIN: the lengths are unpacked, the bytes copied as they are.
   */
  void writeDeltaLengthStringsAsPlain(PageBytes values) throws IOException {
    ByteBufferInputStream stream =
        ByteBufferInputStream.wrap(ByteBuffer.wrap(section, start, end - start));
    int[] lengths = new int[count];
    if (count > 0) {
      DeltaBinaryPackingValuesReader lengthReader = new DeltaBinaryPackingValuesReader();
      lengthReader.initFromPage(count, stream);
      for (int value = 0; value < count; value++) {
        lengths[value] = lengthReader.readInteger();
      }
    }
    int position = start + (int) stream.position();
    int next = 0;
    for (int value = 0; value < count && next < kept; value++) {
      int length = lengths[value];
      if (length < 0 || position + (long) length > end) {
        throw new IOException("Column " + column + " has a value running past its page");
      }
      if (keptValues[next] == value) {
        values.writeIntLittleEndian(length);
        values.write(section, position, length);
        next++;
      }
      position += length;
    }
  }

  /**
   * DELTA_BINARY_PACKED 64-bit ({@code longs}) or 32-bit integers, kept ones written PLAIN (little
   * endian, 8 or 4 bytes each): every value is unpacked, as the deltas chain each to the one
   * before.
   */
  void writeDeltaIntegersAsPlain(boolean longs, PageBytes values) throws IOException {
    if (count == 0) {
      return;
    }
    DeltaBinaryPackingValuesReader reader = new DeltaBinaryPackingValuesReader();
    reader.initFromPage(
        count, ByteBufferInputStream.wrap(ByteBuffer.wrap(section, start, end - start)));
    int next = 0;
    for (int value = 0; value < count && next < kept; value++) {
      long unpacked = longs ? reader.readLong() : reader.readInteger();
      if (keptValues[next] == value) {
        if (longs) {
          values.writeLongLittleEndian(unpacked);
        } else {
          values.writeIntLittleEndian((int) unpacked);
        }
        next++;
      }
    }
    if (next < kept) {
      throw new IOException(
          "Column " + column + " has a page shorter than its " + count + " values");
    }
  }

  /** PLAIN booleans (one bit per value, least significant bit first), each kept one as 0 or 1. */
  int[] booleans() throws IOException {
    if (start + ((long) count + 7) / 8 > end) {
      throw new IOException(
          "Column " + column + " has a page shorter than its " + count + " values");
    }
    int[] values = new int[kept];
    for (int index = 0; index < kept; index++) {
      int value = keptValues[index];
      values[index] = section[start + (value >>> 3)] >>> (value & 7) & 1;
    }
    return values;
  }
}
