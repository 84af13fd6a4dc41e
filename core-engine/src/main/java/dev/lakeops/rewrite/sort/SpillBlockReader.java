package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Reads a spill file written by {@link SpillBlockWriter}: one system call per stored block, which
 * is decompressed into the raw block; reads are served from the raw block.
 */
final class SpillBlockReader implements AutoCloseable {
  private final Path path;
  private final FileChannel file;
  private final byte[] raw = new byte[SpillBlocks.BLOCK_BYTES];
  private final byte[] stored = new byte[SpillBlocks.STORED_BYTES];
  private final ZstdDecompressCtx decompressor = new ZstdDecompressCtx();
  private int position;
  private int limit;
  private boolean closed;

  SpillBlockReader(Path path, FileChannel file) {
    this.path = requireNonNull(path, "path is null");
    this.file = requireNonNull(file, "file is null");
  }

  /**
   * Fills {@code target}'s remaining bytes, fewer only at the end of the file; returns how many.
   */
  int read(ByteBuffer target) throws IOException {
    int read = 0;
    while (target.hasRemaining() && available()) {
      int length = Math.min(target.remaining(), limit - position);
      target.put(raw, position, length);
      position += length;
      read += length;
    }
    return read;
  }

  /**
   * Copies up to {@code length} bytes into {@code buffer} from {@code index}, fewer only at the end
   * of the file; returns how many.
   */
  long read(ArrowBuf buffer, long index, long length) throws IOException {
    long read = 0;
    while (read < length && available()) {
      int chunk = (int) Math.min(length - read, limit - position);
      buffer.setBytes(index + read, raw, position, chunk);
      position += chunk;
      read += chunk;
    }
    return read;
  }

  /** Whether the raw block has bytes left, loading the next block when it has none. */
  private boolean available() throws IOException {
    if (position < limit) {
      return true;
    }
    int header = fill(SpillBlocks.HEADER_BYTES);
    if (header == 0) {
      return false;
    }
    if (header < SpillBlocks.HEADER_BYTES) {
      throw new EOFException("Spill file " + path + " ends inside a block header");
    }
    int rawLength = SpillBlocks.getInt(stored, 0);
    int storedLength = SpillBlocks.getInt(stored, 4);
    if (rawLength <= 0
        || rawLength > SpillBlocks.BLOCK_BYTES
        || storedLength <= 0
        || storedLength > SpillBlocks.STORED_BYTES - SpillBlocks.HEADER_BYTES) {
      throw new IOException(
          "Spill file " + path + " is damaged: a block claims " + rawLength + " raw bytes");
    }
    if (fill(storedLength) < storedLength) {
      throw new EOFException("Spill file " + path + " ends inside a block");
    }
    if (storedLength == rawLength) {
      System.arraycopy(stored, 0, raw, 0, rawLength);
    } else {
      int decompressed =
          decompressor.decompressByteArray(raw, 0, rawLength, stored, 0, storedLength);
      if (decompressed != rawLength) {
        throw new IOException(
            "Spill file "
                + path
                + " is damaged: a block decompressed to "
                + decompressed
                + " bytes");
      }
    }
    position = 0;
    limit = rawLength;
    return true;
  }

  /** Reads up to {@code length} bytes into the start of the stored block; returns how many. */
  private int fill(int length) throws IOException {
    ByteBuffer target = ByteBuffer.wrap(stored, 0, length);
    while (target.hasRemaining()) {
      if (file.read(target) < 0) {
        break;
      }
    }
    return target.position();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closing = file;
        ZstdDecompressCtx closingDecompressor = decompressor) {
      // closed by the resources
    }
  }
}
