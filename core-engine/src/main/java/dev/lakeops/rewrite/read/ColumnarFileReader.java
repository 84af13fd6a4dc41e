package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.UnreadableDataFileException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.schema.MessageType;

/**
 * Decodes one Parquet data file straight into Arrow batches: row group by row group, column by
 * column, with {@link PageColumnDecoder} where the column chunk's encodings allow and with
 * Parquet's column readers otherwise. Rows whose positions are deleted (position delete files,
 * deletion vectors) are skipped while decoding, so batches hold live rows only.
 */
final class ColumnarFileReader implements LiveBatches {
  private final String location;
  private final ParquetFileReader file;
  private final MessageType requestedSchema;
  private final String createdBy;
  private final List<ColumnSlot> slots;
  private final PositionDeleteIndex deletes;
  private final Schema batchSchema;
  private final BufferAllocator allocator;

  /** Whether each row of the batch being read is deleted; null when the file has no deletes. */
  private final boolean[] deleted;

  /** The positions of the batch's live rows; null when no column is filled from them. */
  private final long[] positions;

  private final AtomicLong pageDecodedChunks;
  private final PageDecodeBufferPool bufferPool;
  private final PageDecodeBuffers[] decodeBuffers;

  /** Where the file's zstd pages decompress: see {@link PageCodecs#decompressInto}. */
  private final Consumer<PageDecodeBuffers> decompressInto;

  private PageReadStore rowGroup;
  private int rowGroupIndex = -1;
  private ColumnReader[] readers;
  private PageColumnDecoder[] pageDecoders;
  private long rowsLeftInGroup;
  private long nextPosition;
  private long rowsRead;
  private long rowsDeleted;
  private boolean closed;

  ColumnarFileReader(
      String location,
      ParquetFileReader file,
      CompressionCodecFactory codecs,
      MessageType requestedSchema,
      List<ColumnSlot> slots,
      PositionDeleteIndex deletes,
      Schema batchSchema,
      BufferAllocator allocator,
      AtomicLong pageDecodedChunks,
      PageDecodeBufferPool bufferPool) {
    this.pageDecodedChunks = requireNonNull(pageDecodedChunks, "pageDecodedChunks is null");
    this.bufferPool = requireNonNull(bufferPool, "bufferPool is null");
    this.location = requireNonNull(location, "location is null");
    this.file = requireNonNull(file, "file is null");
    this.requestedSchema = requireNonNull(requestedSchema, "requestedSchema is null");
    this.createdBy = file.getFooter().getFileMetaData().getCreatedBy();
    this.slots = List.copyOf(requireNonNull(slots, "slots is null"));
    this.decodeBuffers = bufferPool.borrow(this.slots.size());
    this.decompressInto =
        codecs instanceof PageCodecs pageCodecs ? pageCodecs::decompressInto : buffers -> {};
    this.deletes = deletes;
    this.deleted = deletes == null ? null : new boolean[BATCH_ROWS];
    this.positions =
        this.slots.stream().anyMatch(slot -> slot.nullFill().isPresent())
            ? new long[BATCH_ROWS]
            : null;
    this.batchSchema = requireNonNull(batchSchema, "batchSchema is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    file.setRequestedSchema(requestedSchema);
  }

  @Override
  public VectorSchemaRoot next() {
    try {
      return readNext();
    } catch (IOException | RuntimeException e) {
      throw UnreadableDataFileException.wrapIfRead(location, e);
    }
  }

  @Override
  public long rowsRead() {
    return rowsRead;
  }

  @Override
  public long rowsDeleted() {
    return rowsDeleted;
  }

  private VectorSchemaRoot readNext() throws IOException {
    while (true) {
      if (rowsLeftInGroup == 0 && !nextRowGroup()) {
        return null;
      }
      int rows = (int) Math.min(BATCH_ROWS, rowsLeftInGroup);
      int live = markDeleted(rows);
      rowsRead += rows;
      rowsDeleted += rows - live;
      VectorSchemaRoot batch = live == 0 ? null : decode(rows, live);
      if (batch == null) {
        skipRows(rows);
      }
      rowsLeftInGroup -= rows;
      nextPosition += rows;
      if (batch != null) {
        return batch;
      }
    }
  }

  private VectorSchemaRoot decode(int rows, int live) throws IOException {
    VectorSchemaRoot batch = VectorSchemaRoot.create(batchSchema, allocator);
    try {
      boolean[] mask = live == rows ? null : deleted;
      for (int index = 0; index < slots.size(); index++) {
        ColumnSlot slot = slots.get(index);
        FieldVector vector = batch.getVector(slot.batchIndex());
        vector.setInitialCapacity(live);
        vector.allocateNew();
        if (pageDecoders[index] != null) {
          pageDecoders[index].read(vector, rows, mask);
        } else if (readers[index] != null) {
          slot.read(readers[index], vector, rows, mask);
        }
        vector.setValueCount(live);
        if (slot.nullFill().isPresent()) {
          slot.nullFill().get().apply((BigIntVector) vector, live, positions);
        }
      }
      batch.setRowCount(live);
      return batch;
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
  }

  /** Marks the deleted rows of the next {@code rows} and records the live rows' positions. */
  private int markDeleted(int rows) {
    if (deletes == null) {
      if (positions != null) {
        for (int row = 0; row < rows; row++) {
          positions[row] = nextPosition + row;
        }
      }
      return rows;
    }
    int live = 0;
    for (int row = 0; row < rows; row++) {
      long position = nextPosition + row;
      boolean isDeleted = deletes.isDeleted(position);
      deleted[row] = isDeleted;
      if (!isDeleted) {
        if (positions != null) {
          positions[live] = position;
        }
        live++;
      }
    }
    return live;
  }

  private void skipRows(int rows) throws IOException {
    for (PageColumnDecoder decoder : pageDecoders) {
      if (decoder != null) {
        decoder.skip(rows);
      }
    }
    for (ColumnReader reader : readers) {
      if (reader == null) {
        continue;
      }
      int maxDefinition = reader.getDescriptor().getMaxDefinitionLevel();
      for (int row = 0; row < rows; row++) {
        if (reader.getCurrentDefinitionLevel() == maxDefinition) {
          reader.skip();
        }
        reader.consume();
      }
    }
  }

  private boolean nextRowGroup() throws IOException {
    closeRowGroup();
    while (true) {
      rowGroup = file.readNextRowGroup();
      if (rowGroup == null) {
        return false;
      }
      rowGroupIndex++;
      if (rowGroup.getRowCount() > 0) {
        break;
      }
      closeRowGroup();
    }
    ColumnReadStoreImpl store =
        new ColumnReadStoreImpl(
            rowGroup, NoOpConverters.forFlatSchema(requestedSchema), requestedSchema, createdBy);
    readers = new ColumnReader[slots.size()];
    pageDecoders = new PageColumnDecoder[slots.size()];
    BlockMetaData block = file.getRowGroups().get(rowGroupIndex);
    for (int index = 0; index < slots.size(); index++) {
      ColumnSlot slot = slots.get(index);
      if (slot.fileColumn().isEmpty()) {
        continue;
      }
      ColumnDescriptor column = slot.fileColumn().get();
      Optional<ColumnChunkMetaData> chunk = chunk(block, column);
      if (slot.pageValues().isPresent()
          && chunk.isPresent()
          && PageColumnDecoder.decodes(chunk.get(), column)) {
        pageDecoders[index] =
            new PageColumnDecoder(
                rowGroup.getPageReader(column),
                column,
                slot.pageValues().get(),
                decodeBuffers[index],
                decompressInto);
        pageDecodedChunks.incrementAndGet();
      } else {
        readers[index] = store.getColumnReader(column);
      }
    }
    rowsLeftInGroup = rowGroup.getRowCount();
    return true;
  }

  private static Optional<ColumnChunkMetaData> chunk(BlockMetaData block, ColumnDescriptor column) {
    ColumnPath path = ColumnPath.get(column.getPath());
    return block.getColumns().stream().filter(chunk -> chunk.getPath().equals(path)).findFirst();
  }

  private void closeRowGroup() {
    if (rowGroup != null) {
      rowGroup.close();
      rowGroup = null;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      closeRowGroup();
    } finally {
      if (!closed) {
        closed = true;
        pageDecoders = null;
        bufferPool.giveBack(decodeBuffers);
      }
      file.close();
    }
  }

  @Override
  public String toString() {
    return "columnar reader of " + location;
  }
}
