package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Writes a spill file in {@link SpillBlocks}: bytes are collected in a direct raw block, copied in
 * from Arrow buffers by address (no heap copy), and each full block is compressed into the stored
 * block and written with one system call. Closing writes the last block and closes the file.
 */
final class SpillBlockWriter implements AutoCloseable {
  private final FileChannel file;
  private final AllocationReservation reservation;
  private final ByteBuffer raw = SpillBlocks.rawBlock();
  private final long rawAddress = MemoryUtil.getByteBufferAddress(raw);
  private final ByteBuffer stored = SpillBlocks.storedBlock();
  private final ZstdCompressCtx compressor = new ZstdCompressCtx();
  private long storedBytes;
  private boolean closed;

  SpillBlockWriter(FileChannel file, BufferAllocator allocator) {
    this.file = requireNonNull(file, "file is null");
    this.reservation = SpillBlocks.reserve(allocator, "a spill file's blocks");
    compressor.setLevel(SpillBlocks.LEVEL);
  }

  /** Appends the remaining bytes of {@code source}. */
  void write(ByteBuffer source) throws IOException {
    while (source.hasRemaining()) {
      if (!raw.hasRemaining()) {
        writeBlock();
      }
      int length = Math.min(source.remaining(), raw.remaining());
      int limit = source.limit();
      source.limit(source.position() + length);
      raw.put(source);
      source.limit(limit);
    }
  }

  /** Appends {@code length} bytes of native memory at {@code address}. */
  void write(long address, long length) throws IOException {
    long copied = 0;
    while (copied < length) {
      if (!raw.hasRemaining()) {
        writeBlock();
      }
      int chunk = (int) Math.min(length - copied, raw.remaining());
      MemoryUtil.copyMemory(address + copied, rawAddress + raw.position(), chunk);
      raw.position(raw.position() + chunk);
      copied += chunk;
    }
  }

  /** Bytes written to the file so far, block headers included. */
  long storedBytes() {
    return storedBytes;
  }

  private void writeBlock() throws IOException {
    int rawLength = raw.position();
    if (rawLength == 0) {
      return;
    }
    stored.clear();
    int compressed =
        compressor.compressDirectByteBuffer(
            stored,
            SpillBlocks.HEADER_BYTES,
            stored.capacity() - SpillBlocks.HEADER_BYTES,
            raw,
            0,
            rawLength);
    int storedLength;
    if (compressed < rawLength) {
      storedLength = compressed;
    } else {
      // incompressible: store the raw bytes as they are
      storedLength = rawLength;
      raw.flip();
      stored.position(SpillBlocks.HEADER_BYTES);
      stored.put(raw);
    }
    stored.putInt(0, rawLength);
    stored.putInt(4, storedLength);
    stored.position(0);
    stored.limit(SpillBlocks.HEADER_BYTES + storedLength);
    while (stored.hasRemaining()) {
      file.write(stored);
    }
    storedBytes += SpillBlocks.HEADER_BYTES + storedLength;
    raw.clear();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closing = file;
        AllocationReservation releasing = reservation;
        ZstdCompressCtx closingCompressor = compressor) {
      writeBlock();
    }
  }
}
