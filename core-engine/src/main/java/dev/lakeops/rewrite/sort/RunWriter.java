package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one sorted run as an Arrow IPC stream (schema, record batches, end-of-stream marker) in
 * compressed {@link SpillBlocks}, through a {@link SpillWriteChannel} (no JVM option needed), in
 * batches of {@link #BATCH_ROWS} rows of the schema it is given: the table's columns, without the
 * sort keys, which the run's reader encodes again. Rows appended from batches that carry a key
 * column have it left out. The largest batch written is remembered so the merge can size its
 * fan-in.
 */
final class RunWriter implements RowSink, AutoCloseable {
  static final int BATCH_ROWS = 1024;

  private final Path file;
  private final VectorSchemaRoot batch;
  private final RowGather gather;
  private final SpillBlockWriter blocks;
  private final SpillWriteChannel out;
  private final VectorUnloader unloader;
  private long largestBatchBytes;
  private boolean closed;

  RunWriter(Path file, Schema schema, BufferAllocator allocator) throws IOException {
    this.file = requireNonNull(file, "file is null");
    this.batch = VectorSchemaRoot.create(schema, allocator);
    this.gather = new RowGather(batch, BATCH_ROWS);
    SpillBlockWriter opened = null;
    try {
      FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      try {
        opened = new SpillBlockWriter(channel);
      } catch (RuntimeException e) {
        channel.close();
        throw e;
      }
      this.blocks = opened;
      this.out = new SpillWriteChannel(blocks);
      this.unloader = new VectorUnloader(batch);
      MessageSerializer.serialize(out, schema, IpcOption.DEFAULT);
    } catch (IOException | RuntimeException e) {
      batch.close();
      if (opened != null) {
        opened.close();
      }
      throw e;
    }
  }

  @Override
  public void append(SourceColumns source, int row) throws IOException {
    if (gather.add(source, row)) {
      flush();
    }
  }

  @Override
  public void sourcesChanging() {
    gather.copyPending();
  }

  Path file() {
    return file;
  }

  long largestBatchBytes() {
    return largestBatchBytes;
  }

  /** Writes the last rows and the end-of-stream marker; the file is complete afterwards. */
  void finish() throws IOException {
    flush();
    ArrowStreamWriter.writeEndOfStream(out, IpcOption.DEFAULT);
    close();
  }

  private void flush() throws IOException {
    if (gather.rows() == 0) {
      return;
    }
    gather.batch();
    largestBatchBytes = Math.max(largestBatchBytes, RowGather.bufferBytes(batch));
    try (ArrowRecordBatch records = unloader.getRecordBatch()) {
      MessageSerializer.serialize(out, records, IpcOption.DEFAULT);
    }
    gather.clear();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (VectorSchemaRoot releasing = batch) {
      blocks.close();
    }
  }
}
