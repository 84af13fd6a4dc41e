package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.arrow.memory.AllocationReservation;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Reads a spill file written by {@link SpillBlockWriter}: one system call per stored block, which
 * is decompressed into a direct raw block; reads are served from the raw block, copied into Arrow
 * buffers by address.
 */
final class SpillBlockReader implements AutoCloseable {
  private final Path path;
  private final FileChannel file;
  private final AllocationReservation reservation;
  private final ByteBuffer raw = SpillBlocks.rawBlock();
  private final long rawAddress = MemoryUtil.getByteBufferAddress(raw);
  private final ByteBuffer stored = SpillBlocks.storedBlock();
  private final ZstdDecompressCtx decompressor = new ZstdDecompressCtx();
  private boolean closed;

  SpillBlockReader(Path path, FileChannel file, BufferAllocator allocator) {
    this.path = requireNonNull(path, "path is null");
    this.file = requireNonNull(file, "file is null");
    this.reservation = SpillBlocks.reserve(allocator, "a spill file's blocks");
    raw.limit(0);
  }

  /**
   * Fills {@code target}'s remaining bytes, fewer only at the end of the file; returns how many.
   */
  int read(ByteBuffer target) throws IOException {
    int read = 0;
    while (target.hasRemaining() && available()) {
      int length = Math.min(target.remaining(), raw.remaining());
      int limit = raw.limit();
      raw.limit(raw.position() + length);
      target.put(raw);
      raw.limit(limit);
      read += length;
    }
    return read;
  }

  /**
   * Copies up to {@code length} bytes to native memory at {@code address}, fewer only at the end of
   * the file; returns how many.
   */
  long read(long address, long length) throws IOException {
    long read = 0;
    while (read < length && available()) {
      int chunk = (int) Math.min(length - read, raw.remaining());
      MemoryUtil.copyMemory(rawAddress + raw.position(), address + read, chunk);
      raw.position(raw.position() + chunk);
      read += chunk;
    }
    return read;
  }

  /** Whether the raw block has bytes left, loading the next block when it has none. */
  private boolean available() throws IOException {
    if (raw.hasRemaining()) {
      return true;
    }
    stored.clear().limit(SpillBlocks.HEADER_BYTES);
    if (!fill()) {
      return false;
    }
    if (stored.hasRemaining()) {
      throw new EOFException("Spill file " + path + " ends inside a block header");
    }
    int rawLength = stored.getInt(0);
    int storedLength = stored.getInt(4);
    if (rawLength <= 0
        || rawLength > SpillBlocks.BLOCK_BYTES
        || storedLength <= 0
        || storedLength > SpillBlocks.STORED_BYTES - SpillBlocks.HEADER_BYTES) {
      throw new IOException(
          "Spill file " + path + " is damaged: a block claims " + rawLength + " raw bytes");
    }
    stored.clear().limit(storedLength);
    if (!fill() || stored.hasRemaining()) {
      throw new EOFException("Spill file " + path + " ends inside a block");
    }
    raw.clear();
    if (storedLength == rawLength) {
      stored.flip();
      raw.put(stored);
    } else {
      int decompressed =
          decompressor.decompressDirectByteBuffer(raw, 0, rawLength, stored, 0, storedLength);
      if (decompressed != rawLength) {
        throw new IOException(
            "Spill file "
                + path
                + " is damaged: a block decompressed to "
                + decompressed
                + " bytes");
      }
    }
    raw.position(0).limit(rawLength);
    return true;
  }

  /** Reads until {@link #stored} is full or the file ends; false if it read nothing. */
  private boolean fill() throws IOException {
    int start = stored.position();
    while (stored.hasRemaining()) {
      if (file.read(stored) < 0) {
        break;
      }
    }
    return stored.position() > start;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closing = file;
        AllocationReservation releasing = reservation;
        ZstdDecompressCtx closingDecompressor = decompressor) {
      // closed by the resources
    }
  }
}
