package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import com.github.luben.zstd.ZstdCompressCtx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.arrow.memory.ArrowBuf;

/**
 * Writes a spill file in {@link SpillBlocks}: bytes are collected in a raw block, each full block
 * is compressed into the stored block and written with one system call. Closing writes the last
 * block and closes the file.
 */
final class SpillBlockWriter implements AutoCloseable {
  private final FileChannel file;
  private final byte[] raw = new byte[SpillBlocks.BLOCK_BYTES];
  private final byte[] stored = new byte[SpillBlocks.STORED_BYTES];
  private final ZstdCompressCtx compressor = new ZstdCompressCtx();
  private int rawLength;
  private long storedBytes;
  private boolean closed;

  SpillBlockWriter(FileChannel file) {
    this.file = requireNonNull(file, "file is null");
    compressor.setLevel(SpillBlocks.LEVEL);
  }

  /** Appends the remaining bytes of {@code source}. */
  void write(ByteBuffer source) throws IOException {
    while (source.hasRemaining()) {
      if (rawLength == raw.length) {
        writeBlock();
      }
      int length = Math.min(source.remaining(), raw.length - rawLength);
      source.get(raw, rawLength, length);
      rawLength += length;
    }
  }

  /** Appends {@code length} bytes of {@code buffer} from {@code index}. */
  void write(ArrowBuf buffer, long index, long length) throws IOException {
    long copied = 0;
    while (copied < length) {
      if (rawLength == raw.length) {
        writeBlock();
      }
      int chunk = (int) Math.min(length - copied, raw.length - rawLength);
      buffer.getBytes(index + copied, raw, rawLength, chunk);
      rawLength += chunk;
      copied += chunk;
    }
  }

  /** Bytes written to the file so far, block headers included. */
  long storedBytes() {
    return storedBytes;
  }

  private void writeBlock() throws IOException {
    if (rawLength == 0) {
      return;
    }
    int compressed =
        compressor.compressByteArray(
            stored,
            SpillBlocks.HEADER_BYTES,
            stored.length - SpillBlocks.HEADER_BYTES,
            raw,
            0,
            rawLength);
    int storedLength;
    if (compressed < rawLength) {
      storedLength = compressed;
    } else {
      // incompressible: store the raw bytes as they are
      storedLength = rawLength;
      System.arraycopy(raw, 0, stored, SpillBlocks.HEADER_BYTES, rawLength);
    }
    SpillBlocks.putInt(stored, 0, rawLength);
    SpillBlocks.putInt(stored, 4, storedLength);
    ByteBuffer block = ByteBuffer.wrap(stored, 0, SpillBlocks.HEADER_BYTES + storedLength);
    while (block.hasRemaining()) {
      file.write(block);
    }
    storedBytes += SpillBlocks.HEADER_BYTES + storedLength;
    rawLength = 0;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (FileChannel closing = file;
        ZstdCompressCtx closingCompressor = compressor) {
      writeBlock();
    }
  }
}
