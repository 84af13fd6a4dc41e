package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.lakeops.rewrite.sort.RunFormat.BufferKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches of one schema to a run file in {@link RunFormat}: every buffer compressed on its
 * own, batches collected in a heap array and written {@link RunFormat#WRITE_BYTES} or more at a
 * time. Arrow buffers are copied into a heap array before they are compressed: a view of their
 * memory as a {@link ByteBuffer} needs {@code --add-opens=java.base/java.nio}, which a stock Trino
 * server does not have.
 */
final class RunFileWriter implements AutoCloseable {
  private final FileChannel file;
  private final BufferKind[] kinds;
  private final int headerBytes;
  private final int vectorCount;
  private final ZstdCompressCtx plainCompressor = new ZstdCompressCtx();
  private final ZstdCompressCtx valuesCompressor = new ZstdCompressCtx();
  private byte[] raw = new byte[0];
  private byte[] out = new byte[RunFormat.WRITE_BYTES];
  private int outLength;
  private int nodeSlot;
  private int bufferSlot;
  private int bufferIndex;
  private long storedBytes;
  private boolean closed;

  RunFileWriter(FileChannel file, Schema schema) {
    this.file = requireNonNull(file, "file is null");
    this.kinds = RunFormat.bufferKinds(requireNonNull(schema, "schema is null"));
    this.vectorCount = RunFormat.vectorCount(schema);
    this.headerBytes = RunFormat.headerBytes(vectorCount, kinds.length);
    plainCompressor.setLevel(RunFormat.PLAIN_LEVEL);
    valuesCompressor.setLevel(RunFormat.VALUES_LEVEL);
  }

  /** Appends {@code batch}'s rows; a batch without rows is left out. */
  void write(VectorSchemaRoot batch) throws IOException {
    int rows = batch.getRowCount();
    if (rows == 0) {
      return;
    }
    int header = outLength;
    reserve(headerBytes);
    outLength += headerBytes;
    nodeSlot = header + 2 * Integer.BYTES;
    bufferSlot = nodeSlot + 2 * Integer.BYTES * vectorCount;
    bufferIndex = 0;
    for (FieldVector vector : batch.getFieldVectors()) {
      writeVector(vector);
    }
    if (bufferIndex != kinds.length) {
      throw new IllegalStateException(
          "A run batch has " + bufferIndex + " buffers where its schema has " + kinds.length);
    }
    RunFormat.putInt(out, header, rows);
    RunFormat.putInt(out, header + Integer.BYTES, outLength - header - headerBytes);
    if (outLength >= RunFormat.WRITE_BYTES) {
      flush();
    }
  }

  /** Bytes written to the file so far. */
  long storedBytes() {
    return storedBytes;
  }

  /** Writes the end marker and what is still collected; the file is complete afterwards. */
  void finish() throws IOException {
    reserve(headerBytes);
    Arrays.fill(out, outLength, outLength + headerBytes, (byte) 0);
    outLength += headerBytes;
    flush();
  }

  private void writeVector(FieldVector vector) throws IOException {
    RunFormat.putInt(out, nodeSlot, vector.getValueCount());
    RunFormat.putInt(out, nodeSlot + Integer.BYTES, vector.getNullCount());
    nodeSlot += 2 * Integer.BYTES;
    List<ArrowBuf> buffers = vector.getFieldBuffers();
    for (ArrowBuf buffer : buffers) {
      if (bufferIndex == kinds.length) {
        throw new IllegalStateException("A run batch has more buffers than its schema");
      }
      writeBuffer(buffer, kinds[bufferIndex++]);
    }
    for (FieldVector child : vector.getChildrenFromFields()) {
      writeVector(child);
    }
  }

  private void writeBuffer(ArrowBuf buffer, BufferKind kind) {
    long readable = buffer.readableBytes();
    if (readable > Integer.MAX_VALUE / 2) {
      throw new IllegalStateException("A run batch buffer of " + readable + " bytes is too large");
    }
    int length = (int) readable;
    if (raw.length < length) {
      raw = new byte[Math.max(length, 2 * raw.length)];
    }
    if (kind == BufferKind.OFFSETS) {
      differences(buffer.memoryAddress() + buffer.readerIndex(), length);
    } else if (length > 0) {
      buffer.getBytes(buffer.readerIndex(), raw, 0, length);
    }
    int stored = length;
    if (length >= RunFormat.SMALLEST_COMPRESSED) {
      reserve((int) Zstd.compressBound(length));
      ZstdCompressCtx compressor = kind == BufferKind.VALUES ? valuesCompressor : plainCompressor;
      int compressed =
          compressor.compressByteArray(out, outLength, out.length - outLength, raw, 0, length);
      if (compressed < length) {
        stored = compressed;
      }
    }
    if (stored == length) {
      reserve(length);
      System.arraycopy(raw, 0, out, outLength, length);
    }
    RunFormat.putInt(out, bufferSlot, length);
    RunFormat.putInt(out, bufferSlot + Integer.BYTES, stored);
    bufferSlot += 2 * Integer.BYTES;
    outLength += stored;
  }

  /** Writes the differences between neighbouring 32-bit offsets at {@code address} into raw. */
  private void differences(long address, int length) {
    int previous = 0;
    for (int offset = 0; offset + Integer.BYTES <= length; offset += Integer.BYTES) {
      int value = MemoryUtil.getInt(address + offset);
      RunFormat.putInt(raw, offset, value - previous);
      previous = value;
    }
  }

  /** Makes room for {@code bytes} more bytes after what is collected. */
  private void reserve(int bytes) {
    if (out.length - outLength < bytes) {
      out = Arrays.copyOf(out, Math.max(outLength + bytes, 2 * out.length));
    }
  }

  private void flush() throws IOException {
    ByteBuffer pending = ByteBuffer.wrap(out, 0, outLength);
    while (pending.hasRemaining()) {
      file.write(pending);
    }
    storedBytes += outLength;
    outLength = 0;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closing = file;
        ZstdCompressCtx closingPlain = plainCompressor;
        ZstdCompressCtx closingValues = valuesCompressor) {
      // closed by the resources
    }
  }
}
