package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.UncachedFileOutput;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one sorted run to a file in {@link RunFormat}, through a {@link RunFileWriter}, in batches
 * of {@link #BATCH_ROWS} rows of the schema it is given: the table's columns, without the sort
 * keys, which the run's reader encodes again. Rows appended from batches that carry a key column
 * have it left out. The largest batch written is remembered so the merge can size its fan-in.
 */
final class RunWriter implements RowSink, AutoCloseable {
  static final int BATCH_ROWS = 1024;

  private final Path file;
  private final VectorSchemaRoot batch;
  private final RowGather gather;
  private final RunFileWriter out;
  private long largestBatchBytes;
  private boolean closed;

  RunWriter(Path file, Schema schema, BufferAllocator allocator) throws IOException {
    this.file = requireNonNull(file, "file is null");
    UncachedFileOutput channel = UncachedFileOutput.create(file, false);
    try {
      this.out = new RunFileWriter(channel, schema);
    } catch (RuntimeException e) {
      channel.close();
      throw e;
    }
    try {
      this.batch = VectorSchemaRoot.create(schema, allocator);
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
    this.gather = new RowGather(batch, BATCH_ROWS);
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

  /** Writes the last rows and the end marker; the file is complete afterwards. */
  void finish() throws IOException {
    flush();
    out.finish();
    close();
  }

  private void flush() throws IOException {
    if (gather.rows() == 0) {
      return;
    }
    gather.batch();
    largestBatchBytes = Math.max(largestBatchBytes, RowGather.bufferBytes(batch));
    out.write(batch);
    gather.clear();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (VectorSchemaRoot releasing = batch) {
      out.close();
    }
  }
}
