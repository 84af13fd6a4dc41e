package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.codec.HybridRunCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The rows left of consecutive pages that lost deleted rows, gathered for one output column chunk
 * and written as one v1 page once it reaches the table's page size (Iceberg's defaults: 1 MB of
 * values or 20,000 rows), the values' encoding changes, or another page has to be written first.
 * Input files are often small, with a page or two per column; gathering their rows into full-size
 * pages compresses better and costs fewer page writes. Definition levels, dictionary ids and PLAIN
 * values are appended as they come; nothing is decoded.
 */
final class FilteredPageBuffer {
  private final ColumnDescriptor descriptor;
  private final PageCompression compression;
  private final DataPageWriter pageWriter;
  private final int pageValueBytes;
  private final int pageRowLimit;
  private final int maxDefinition;
  private final int levelBitWidth;
  private final PageBytes plainValues;
  private final ByteArrayOutputStream encoded = new ByteArrayOutputStream();
  private final PageBytes body;
  private int[] levels = new int[64];

  /** Whether every level gathered is the maximum: the page's levels are then one RLE run. */
  private boolean allDefined = true;

  /** Dictionary ids, or for a boolean column its values as 0 and 1: {@link #idCount} of them. */
  private int[] ids = new int[64];

  private int rows;
  private int idCount;
  private int idBitWidth;
  private Encoding encoding;

  /**
   * @param descriptor the output column
   * @param compression the output chunk's codec
   * @param pageValueBytes a page is written once its values take about this many bytes
   * @param pageRowLimit or once it holds this many rows
   * @param plainValues gathers PLAIN values; {@code body} builds pages: both reused, by every
   *     column of a merge (one column at a time)
   */
  FilteredPageBuffer(
      ColumnDescriptor descriptor,
      PageCompression compression,
      DataPageWriter pageWriter,
      int pageValueBytes,
      int pageRowLimit,
      PageBytes plainValues,
      PageBytes body) {
    this.descriptor = requireNonNull(descriptor, "descriptor is null");
    this.compression = requireNonNull(compression, "compression is null");
    this.pageWriter = requireNonNull(pageWriter, "pageWriter is null");
    this.pageValueBytes = pageValueBytes;
    this.pageRowLimit = pageRowLimit;
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.levelBitWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
    this.plainValues = requireNonNull(plainValues, "plainValues is null");
    this.body = requireNonNull(body, "body is null");
    plainValues.reset();
  }

  /** Writes a page's kept PLAIN values where the buffer gathers them. */
  @FunctionalInterface
  interface PlainValuesSource {
    void writeTo(PageBytes values) throws IOException;
  }

  /**
   * Appends {@code rowCount} rows whose values are dictionary ids {@code newIds[0, idCount)} of
   * {@code bitWidth} bits at most.
   *
   * @param rowLevels the rows' definition levels, or {@code null} when every value is defined
   */
  void addIds(
      int[] rowLevels,
      int rowCount,
      int[] newIds,
      int idCount,
      int bitWidth,
      Encoding valuesEncoding)
      throws IOException {
    startOrFlush(valuesEncoding);
    addLevels(rowLevels, rowCount);
    ensureIds(this.idCount + idCount);
    System.arraycopy(newIds, 0, ids, this.idCount, idCount);
    this.idCount += idCount;
    idBitWidth = Math.max(idBitWidth, bitWidth);
    flushIfFull();
  }

  /**
   * Appends {@code rowCount} rows whose non-null values are {@code count} booleans, {@code
   * values[i]} 0 or 1.
   */
  void addBooleans(int[] rowLevels, int rowCount, int[] values, int count) throws IOException {
    startOrFlush(Encoding.PLAIN);
    addLevels(rowLevels, rowCount);
    ensureIds(idCount + count);
    System.arraycopy(values, 0, ids, idCount, count);
    idCount += count;
    flushIfFull();
  }

  /** Appends {@code rowCount} rows whose non-null values are {@code values}, PLAIN-encoded. */
  void addPlain(int[] rowLevels, int rowCount, byte[] values) throws IOException {
    addPlain(rowLevels, rowCount, sink -> sink.write(values, 0, values.length));
  }

  /** Appends {@code rowCount} rows whose non-null values {@code values} writes PLAIN-encoded. */
  void addPlain(int[] rowLevels, int rowCount, PlainValuesSource values) throws IOException {
    startOrFlush(Encoding.PLAIN);
    addLevels(rowLevels, rowCount);
    values.writeTo(plainValues);
    flushIfFull();
  }

  /** Writes the rows gathered so far as one page, if there are any. */
  void flush() throws IOException {
    if (rows == 0) {
      encoding = null;
      return;
    }
    body.reset();
    writeLevels();
    writeValues();
    pageWriter.writeFiltered(
        rows, compression.compressed(body.array(), 0, body.size()), body.size(), encoding);
    rows = 0;
    allDefined = true;
    idCount = 0;
    idBitWidth = 0;
    plainValues.reset();
    encoding = null;
  }

  private void startOrFlush(Encoding valuesEncoding) throws IOException {
    if (encoding != null && encoding != valuesEncoding) {
      flush();
    }
    encoding = valuesEncoding;
  }

  private void flushIfFull() throws IOException {
    long valueBytes =
        encoding.usesDictionary()
            ? (long) idCount * idBitWidth / 8
            : plainValues.size() + idCount / 8;
    if (rows >= pageRowLimit || valueBytes >= pageValueBytes) {
      flush();
    }
  }

  private void addLevels(int[] rowLevels, int rowCount) {
    if (maxDefinition == 0) {
      rows += rowCount;
      return;
    }
    if (levels.length < rows + rowCount + 8) {
      levels = Arrays.copyOf(levels, Math.max(rows + rowCount + 8, 2 * levels.length) & ~7);
    }
    if (rowLevels == null) {
      Arrays.fill(levels, rows, rows + rowCount, maxDefinition);
    } else {
      System.arraycopy(rowLevels, 0, levels, rows, rowCount);
      allDefined = false;
    }
    rows += rowCount;
  }

  private void ensureIds(int count) {
    if (ids.length < count + 8) {
      ids = Arrays.copyOf(ids, Math.max(count + 8, 2 * ids.length) & ~7);
    }
  }

  /** The values section: bit width and RLE/bit-packed ids, packed booleans, or PLAIN values. */
  private void writeValues() throws IOException {
    if (encoding.usesDictionary()) {
      Arrays.fill(ids, idCount, (idCount + 7) & ~7, 0);
      body.write(idBitWidth);
      encoded.reset();
      HybridRunCodec.encode(ids, idCount, idBitWidth, encoded);
      body.write(encoded.toByteArray(), 0, encoded.size());
    } else if (descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BOOLEAN) {
      byte[] bits = new byte[(idCount + 7) / 8];
      for (int index = 0; index < idCount; index++) {
        bits[index >>> 3] |= (byte) (ids[index] << (index & 7));
      }
      body.write(bits, 0, bits.length);
    } else {
      body.write(plainValues.array(), 0, plainValues.size());
    }
  }

  private static void writeUnsignedVarInt(int value, ByteArrayOutputStream out) {
    int remaining = value;
    while ((remaining & ~0x7F) != 0) {
      out.write((remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    out.write(remaining);
  }

  /** The definition levels of a v1 page, if the column has any: their length, then their runs. */
  private void writeLevels() throws IOException {
    if (maxDefinition == 0) {
      return;
    }
    encoded.reset();
    if (allDefined) {
      // what the encoder writes for equal levels: one RLE run
      writeUnsignedVarInt(rows << 1, encoded);
      for (int index = 0; index < (levelBitWidth + 7) / 8; index++) {
        encoded.write((maxDefinition >>> (8 * index)) & 0xFF);
      }
    } else {
      Arrays.fill(levels, rows, (rows + 7) & ~7, 0);
      HybridRunCodec.encode(levels, rows, levelBitWidth, encoded);
    }
    body.writeIntLittleEndian(encoded.size());
    body.write(encoded.toByteArray(), 0, encoded.size());
  }
}
