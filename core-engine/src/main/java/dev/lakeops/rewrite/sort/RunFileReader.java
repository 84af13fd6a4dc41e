package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.sort.RunFormat.BufferKind;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads the batches of a run file written by {@link RunFileWriter}, one at a time, into a {@link
 * VectorSchemaRoot}: a batch's header and its stored buffers take one read each; its buffers are
 * decompressed into one Arrow allocation, sliced per buffer. Values of strings and binaries get
 * {@link ColumnGather#WORD_COPY_BYTES} bytes of room after them, so gathers can copy every one of
 * them in whole words.
 */
final class RunFileReader implements AutoCloseable {
  private static final int ALIGNMENT = Long.BYTES;

  private final Path path;
  private final FileChannel file;
  private final BufferKind[] kinds;
  private final int vectorCount;
  private final byte[] header;
  private final RunDecompression decompression;
  private byte[] stored = new byte[0];
  private boolean closed;

  RunFileReader(Path path, FileChannel file, Schema schema, RunDecompression decompression) {
    this.path = requireNonNull(path, "path is null");
    this.file = requireNonNull(file, "file is null");
    this.kinds = RunFormat.bufferKinds(requireNonNull(schema, "schema is null"));
    this.vectorCount = RunFormat.vectorCount(schema);
    this.header = new byte[RunFormat.headerBytes(vectorCount, kinds.length)];
    this.decompression = requireNonNull(decompression, "decompression is null");
  }

  /**
   * Loads the next batch into {@code root} (of the run's schema), its buffers allocated from {@code
   * allocator}; {@code false} at the end of the run.
   */
  boolean next(VectorSchemaRoot root, BufferAllocator allocator) throws IOException {
    if (!fill(header, header.length)) {
      throw new EOFException("Spill file " + path + " ends before its end marker");
    }
    int rows = RunFormat.getInt(header, 0);
    int storedLength = RunFormat.getInt(header, Integer.BYTES);
    if (rows == 0) {
      return false;
    }
    if (rows < 0 || storedLength < 0) {
      throw damaged("a batch header claims " + rows + " rows in " + storedLength + " bytes");
    }
    if (stored.length < storedLength) {
      stored = new byte[Math.max(storedLength, stored.length + stored.length / 2)];
    }
    if (!fill(stored, storedLength)) {
      throw new EOFException("Spill file " + path + " ends inside a batch");
    }
    load(root, allocator, rows, storedLength);
    return true;
  }

  private void load(VectorSchemaRoot root, BufferAllocator allocator, int rows, int storedLength)
      throws IOException {
    int bufferHeader = 2 * Integer.BYTES * (1 + vectorCount);
    long bodyBytes = 0;
    long storedTotal = 0;
    for (int buffer = 0; buffer < kinds.length; buffer++) {
      int rawLength = RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer);
      int bufferStored =
          RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer + Integer.BYTES);
      if (rawLength < 0 || bufferStored < 0 || bufferStored > rawLength) {
        throw damaged("a buffer claims " + bufferStored + " of " + rawLength + " bytes");
      }
      bodyBytes += aligned(capacity(buffer, rawLength));
      storedTotal += bufferStored;
    }
    if (storedTotal != storedLength) {
      throw damaged(
          "its buffers hold " + storedTotal + " bytes where the batch says " + storedLength);
    }
    List<ArrowFieldNode> nodes = new ArrayList<>(vectorCount);
    for (int vector = 0; vector < vectorCount; vector++) {
      int at = 2 * Integer.BYTES * (1 + vector);
      nodes.add(
          new ArrowFieldNode(
              RunFormat.getInt(header, at), RunFormat.getInt(header, at + Integer.BYTES)));
    }
    ArrowRecordBatch batch;
    try (ArrowBuf body = allocator.buffer(bodyBytes)) {
      List<ArrowBuf> buffers = new ArrayList<>(kinds.length);
      long bodyOffset = 0;
      int storedOffset = 0;
      for (int buffer = 0; buffer < kinds.length; buffer++) {
        int rawLength = RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer);
        int bufferStored =
            RunFormat.getInt(header, bufferHeader + 2 * Integer.BYTES * buffer + Integer.BYTES);
        int capacity = capacity(buffer, rawLength);
        ArrowBuf slice = body.slice(bodyOffset, capacity);
        restore(slice, kinds[buffer], storedOffset, bufferStored, rawLength);
        slice.writerIndex(rawLength);
        buffers.add(slice);
        bodyOffset += aligned(capacity);
        storedOffset += bufferStored;
      }
      batch = new ArrowRecordBatch(rows, nodes, buffers);
    }
    try (ArrowRecordBatch loading = batch) {
      new VectorLoader(root).load(loading);
    }
  }

  /** Writes one buffer's raw bytes into {@code target}, decompressing and summing as stored. */
  private void restore(
      ArrowBuf target, BufferKind kind, int storedOffset, int storedLength, int rawLength)
      throws IOException {
    if (rawLength == 0) {
      return;
    }
    byte[] source = stored;
    int sourceOffset = storedOffset;
    if (storedLength < rawLength) {
      try {
        source = decompression.decompress(stored, storedOffset, storedLength, rawLength);
      } catch (RuntimeException e) {
        throw damaged(e.getMessage());
      }
      sourceOffset = 0;
    }
    if (kind == BufferKind.OFFSETS) {
      long address = target.memoryAddress();
      int sum = 0;
      for (int offset = 0; offset + Integer.BYTES <= rawLength; offset += Integer.BYTES) {
        sum += RunFormat.getInt(source, sourceOffset + offset);
        MemoryUtil.putInt(address + offset, sum);
      }
    } else {
      target.setBytes(0, source, sourceOffset, rawLength);
    }
  }

  private int capacity(int buffer, int rawLength) {
    return kinds[buffer] == BufferKind.VALUES
        ? rawLength + ColumnGather.WORD_COPY_BYTES
        : rawLength;
  }

  private static long aligned(long bytes) {
    return (bytes + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Reads {@code length} bytes into the start of {@code target}; false if the file ends first. */
  private boolean fill(byte[] target, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(target, 0, length);
    while (buffer.hasRemaining()) {
      if (file.read(buffer) < 0) {
        return false;
      }
    }
    return true;
  }

  private IOException damaged(String problem) {
    return new IOException("Spill file " + path + " is damaged: " + problem);
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    file.close();
  }
}
