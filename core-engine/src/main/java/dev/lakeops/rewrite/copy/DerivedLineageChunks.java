package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.LoadedRowGroup.LoadedChunk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.delta.DeltaBinaryPackingValuesWriterForLong;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Builds the row lineage column chunk of a row group that does not store it, as if the input had
 * stored it: {@code _row_id} is the row group's first row id plus each kept row's position (deleted
 * rows leave gaps), {@code _last_updated_sequence_number} the file's sequence number. Values are
 * INT64 in DELTA_BINARY_PACKED v1 data pages of at most the page row limit, compressed with the
 * given codec, with the chunk's statistics in its metadata; the chunk holds only the rows deletes
 * keep. Both columns rise by one or stay the same from row to row, so a page of them packs into a
 * few hundred bytes where PLAIN spends eight a row and the codec a good part of the rewrite's time.
 */
final class DerivedLineageChunks {
  private static final org.apache.parquet.format.Encoding DELTA_BINARY_PACKED =
      org.apache.parquet.format.Encoding.DELTA_BINARY_PACKED;
  private static final org.apache.parquet.format.Encoding RLE =
      org.apache.parquet.format.Encoding.RLE;
  private static final org.apache.parquet.format.Encoding BIT_PACKED =
      org.apache.parquet.format.Encoding.BIT_PACKED;

  /** Bytes kept free before a page's values for its levels: length prefix and one RLE run. */
  private static final int LEVELS_RESERVED = 16;

  /** The delta writer's first slab and its largest: a page of packed deltas is far smaller. */
  private static final int DELTA_SLAB_BYTES = 1 << 12;

  private static final int DELTA_PAGE_BYTES = 1 << 20;

  private final PageCompression compression;
  private final int pageRowLimit;
  private final PageBytes body = new PageBytes(1 << 16);
  private final DeltaBinaryPackingValuesWriterForLong values =
      new DeltaBinaryPackingValuesWriterForLong(
          DELTA_SLAB_BYTES, DELTA_PAGE_BYTES, HeapByteBufferAllocator.getInstance());

  DerivedLineageChunks(PageCompression compression, int pageRowLimit) {
    this.compression = requireNonNull(compression, "compression is null");
    if (pageRowLimit < 1) {
      throw new IllegalArgumentException("pageRowLimit must be positive: " + pageRowLimit);
    }
    this.pageRowLimit = pageRowLimit;
  }

  /**
   * The chunk of lineage column {@code column} (described by {@code descriptor}) of a row group.
   */
  LoadedChunk chunk(
      ColumnDescriptor descriptor,
      LineageColumns column,
      long rowCount,
      DeletedRows deletedRows,
      RowLineage lineage)
      throws IOException {
    if (rowCount > Integer.MAX_VALUE - 64) {
      throw new IOException("A row group of " + rowCount + " rows is too large");
    }
    boolean optional = descriptor.getMaxDefinitionLevel() > 0;
    boolean nulls =
        column == LineageColumns.ROW_ID
            ? lineage.firstRowId() == null
            : lineage.lastUpdatedSequenceNumber() == null;
    if (nulls && !optional) {
      throw new IOException(
          "Column "
              + String.join(".", descriptor.getPath())
              + " is required but the file has no row lineage to derive it from");
    }
    PrimitiveType type = descriptor.getPrimitiveType();
    LongStatistics statistics = (LongStatistics) Statistics.createStats(type);
    ByteArrayOutputStream chunk = new ByteArrayOutputStream();
    long uncompressedTotal = 0;
    int rows = (int) rowCount;
    int row = 0;
    long keptTotal = 0;
    while (row < rows) {
      body.reset();
      if (optional) {
        // one RLE run of the definition level, written once the page's row count is known
        body.append(LEVELS_RESERVED);
      }
      values.reset();
      int count = 0;
      while (row < rows && count < pageRowLimit) {
        int deleted = deletedRows.nextDeleted(row, rows);
        int take = Math.min(deleted - row, pageRowLimit - count);
        if (!nulls) {
          writeValues(column, lineage, row, take, statistics);
        }
        count += take;
        row += take;
        if (row == deleted && row < rows) {
          row++;
        }
      }
      if (count == 0) {
        continue;
      }
      if (!nulls) {
        BytesInput packed = values.getBytes();
        int at = body.append((int) packed.size());
        packed.toByteBuffer().get(body.array(), at, (int) packed.size());
      }
      int bodyStart = optional ? writeLevels(count, nulls) : 0;
      if (nulls) {
        statistics.incrementNumNulls(count);
      }
      int bodyLength = body.size() - bodyStart;
      BytesInput compressed = compression.compressed(body.array(), bodyStart, bodyLength);
      int compressedLength = (int) compressed.size();
      PageHeader header = new PageHeader(PageType.DATA_PAGE, bodyLength, compressedLength);
      header.setData_page_header(new DataPageHeader(count, DELTA_BINARY_PACKED, RLE, BIT_PACKED));
      int before = chunk.size();
      Util.writePageHeader(header, chunk);
      uncompressedTotal += chunk.size() - before + bodyLength;
      compressed.writeAllTo(chunk);
      keptTotal += count;
    }
    byte[] bytes = chunk.toByteArray();
    Set<Encoding> encodings = EnumSet.of(Encoding.DELTA_BINARY_PACKED, Encoding.BIT_PACKED);
    if (optional) {
      encodings.add(Encoding.RLE);
    }
    ColumnChunkMetaData metaData =
        ColumnChunkMetaData.get(
            ColumnPath.get(descriptor.getPath()),
            type,
            compression.codec(),
            null,
            encodings,
            statistics,
            0,
            0,
            keptTotal,
            bytes.length,
            uncompressedTotal);
    return new LoadedChunk(metaData, bytes, 0, bytes.length, false, DeletedRows.none(), true);
  }

  /**
   * Writes the page's definition levels (one RLE run of 1, defined, or 0, null; bit width 1) into
   * the space reserved before its values, right-aligned against them; returns where the page body
   * starts.
   */
  private int writeLevels(int count, boolean nulls) {
    byte[] run = new byte[8];
    int length = 0;
    int remaining = count << 1;
    while ((remaining & ~0x7F) != 0) {
      run[length++] = (byte) ((remaining & 0x7F) | 0x80);
      remaining >>>= 7;
    }
    run[length++] = (byte) remaining;
    run[length++] = (byte) (nulls ? 0 : 1);
    int start = LEVELS_RESERVED - 4 - length;
    byte[] bytes = body.array();
    bytes[start] = (byte) length;
    bytes[start + 1] = 0;
    bytes[start + 2] = 0;
    bytes[start + 3] = 0;
    System.arraycopy(run, 0, bytes, start + 4, length);
    return start;
  }

  /** Adds the lineage of rows {@code [row, row + count)} of the row group to the page's values. */
  private void writeValues(
      LineageColumns column, RowLineage lineage, int row, int count, LongStatistics statistics) {
    if (count == 0) {
      return;
    }
    if (column == LineageColumns.ROW_ID) {
      long first = lineage.firstRowId() + row;
      for (int index = 0; index < count; index++) {
        values.writeLong(first + index);
      }
      statistics.updateStats(first);
      statistics.updateStats(first + count - 1);
    } else {
      long sequenceNumber = lineage.lastUpdatedSequenceNumber();
      for (int index = 0; index < count; index++) {
        values.writeLong(sequenceNumber);
      }
      statistics.updateStats(sequenceNumber);
    }
  }
}
