package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.LoadedRowGroup.LoadedChunk;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
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
 * PLAIN INT64 in v1 data pages of at most the page row limit, compressed with the given codec, with
 * the chunk's statistics in its metadata; the chunk holds only the rows deletes keep.
 */
final class DerivedLineageChunks {
  private static final org.apache.parquet.format.Encoding PLAIN =
      org.apache.parquet.format.Encoding.PLAIN;
  private static final org.apache.parquet.format.Encoding RLE =
      org.apache.parquet.format.Encoding.RLE;
  private static final org.apache.parquet.format.Encoding BIT_PACKED =
      org.apache.parquet.format.Encoding.BIT_PACKED;

  private final PageCompression compression;
  private final int pageRowLimit;

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
    int[] kept = new int[Math.min(pageRowLimit, Math.max(rows, 1))];
    int row = 0;
    long keptTotal = 0;
    while (row < rows) {
      int count = 0;
      while (row < rows && count < kept.length) {
        if (!deletedRows.isDeleted(row)) {
          kept[count++] = row;
        }
        row++;
      }
      if (count == 0) {
        continue;
      }
      byte[] body = pageBody(column, lineage, kept, count, optional, nulls, statistics);
      byte[] compressed = compression.compress(body);
      PageHeader header = new PageHeader(PageType.DATA_PAGE, body.length, compressed.length);
      header.setData_page_header(new DataPageHeader(count, PLAIN, RLE, BIT_PACKED));
      int before = chunk.size();
      Util.writePageHeader(header, chunk);
      uncompressedTotal += chunk.size() - before + body.length;
      chunk.write(compressed);
      keptTotal += count;
    }
    byte[] bytes = chunk.toByteArray();
    Set<Encoding> encodings = EnumSet.of(Encoding.PLAIN, Encoding.BIT_PACKED);
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

  private static byte[] pageBody(
      LineageColumns column,
      RowLineage lineage,
      int[] kept,
      int count,
      boolean optional,
      boolean nulls,
      LongStatistics statistics)
      throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(8 + count * (nulls ? 0 : 8));
    if (optional) {
      // one RLE run of the definition level: 1 (defined) or 0 (null), bit width 1
      ByteArrayOutputStream run = new ByteArrayOutputStream(8);
      BytesUtils.writeUnsignedVarInt(count << 1, run);
      run.write(nulls ? 0 : 1);
      BytesUtils.writeIntLittleEndian(body, run.size());
      run.writeTo(body);
    }
    if (nulls) {
      statistics.incrementNumNulls(count);
      return body.toByteArray();
    }
    byte[] values = new byte[count * 8];
    for (int index = 0; index < count; index++) {
      long value =
          column == LineageColumns.ROW_ID
              ? lineage.rowId(kept[index])
              : lineage.lastUpdatedSequenceNumber();
      statistics.updateStats(value);
      writeLongLittleEndian(values, index * 8, value);
    }
    body.write(values);
    return body.toByteArray();
  }

  private static void writeLongLittleEndian(byte[] bytes, int offset, long value) {
    for (int index = 0; index < 8; index++) {
      bytes[offset + index] = (byte) (value >>> (8 * index));
    }
  }
}
