package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesReader;

/**
 * The kept values of one page's values section, written PLAIN, their bytes copied and never
 * interpreted: fixed-width values in runs, length-prefixed values one by one, booleans one by one,
 * and DELTA_LENGTH_BYTE_ARRAY strings with their lengths unpacked.
 */
final class KeptPlainValues {
  private final byte[] section;
  private final int start;
  private final int count;
  private final int[] keptValues;
  private final int kept;
  private final String column;

  /**
   * @param section the page's uncompressed values section, from {@code start}
   * @param count the values in it
   * @param keptValues ascending indices of the values to keep, {@code kept} of them
   * @param column the column's name, for errors
   */
  KeptPlainValues(byte[] section, int start, int count, int[] keptValues, int kept, String column) {
    this.section = requireNonNull(section, "section is null");
    this.start = start;
    this.count = count;
    this.keptValues = requireNonNull(keptValues, "keptValues is null");
    this.kept = kept;
    this.column = requireNonNull(column, "column is null");
  }

  /** Values of {@code width} bytes each, kept runs copied in one go. */
  byte[] fixedWidth(int width) throws IOException {
    if (start + (long) count * width > section.length) {
      throw new IOException(
          "Column " + column + " has a page shorter than its " + count + " values");
    }
    byte[] values = new byte[kept * width];
    int index = 0;
    while (index < kept) {
      int runStart = keptValues[index];
      int runEnd = index + 1;
      while (runEnd < kept && keptValues[runEnd] == runStart + (runEnd - index)) {
        runEnd++;
      }
      System.arraycopy(
          section, start + runStart * width, values, index * width, (runEnd - index) * width);
      index = runEnd;
    }
    return values;
  }

  /** Strings and binaries, each a 4-byte little-endian length and its bytes. */
  byte[] lengthPrefixed() throws IOException {
    ByteArrayOutputStream values = new ByteArrayOutputStream(section.length - start);
    int position = start;
    int next = 0;
    for (int value = 0; value < count && next < kept; value++) {
      if (position + 4 > section.length) {
        throw new IOException(
            "Column " + column + " has a page shorter than its " + count + " values");
      }
      int length = BytesUtils.readIntLittleEndian(section, position);
      int end = position + 4 + length;
      if (length < 0 || end > section.length) {
        throw new IOException("Column " + column + " has a value running past its page");
      }
      if (keptValues[next] == value) {
        values.write(section, position, end - position);
        next++;
      }
      position = end;
    }
    return values.toByteArray();
  }

  /**
   * DELTA_LENGTH_BYTE_ARRAY values (their lengths delta-packed, then their bytes back to back),
   * kept ones written PLAIN: the lengths are unpacked, the bytes copied as they are.
   */
  byte[] deltaLengthStringsAsPlain() throws IOException {
    ByteBufferInputStream stream =
        ByteBufferInputStream.wrap(ByteBuffer.wrap(section, start, section.length - start));
    int[] lengths = new int[count];
    if (count > 0) {
      DeltaBinaryPackingValuesReader lengthReader = new DeltaBinaryPackingValuesReader();
      lengthReader.initFromPage(count, stream);
      for (int value = 0; value < count; value++) {
        lengths[value] = lengthReader.readInteger();
      }
    }
    int position = start + (int) stream.position();
    ByteArrayOutputStream values = new ByteArrayOutputStream(section.length - start + 4 * kept);
    int next = 0;
    for (int value = 0; value < count && next < kept; value++) {
      int length = lengths[value];
      if (length < 0 || position + (long) length > section.length) {
        throw new IOException("Column " + column + " has a value running past its page");
      }
      if (keptValues[next] == value) {
        BytesUtils.writeIntLittleEndian(values, length);
        values.write(section, position, length);
        next++;
      }
      position += length;
    }
    return values.toByteArray();
  }

  /** PLAIN booleans (one bit per value, least significant bit first), each kept one as 0 or 1. */
  int[] booleans() throws IOException {
    if (start + ((long) count + 7) / 8 > section.length) {
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
