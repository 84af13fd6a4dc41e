package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ipc.ReadChannel;

/**
 * The Arrow IPC read channel of a spill file: reads come from a {@link SpillBlockReader}, Arrow
 * buffers filled straight from its block, for the reason {@link SpillWriteChannel} gives.
 */
final class SpillReadChannel extends ReadChannel {
  private final SpillBlockReader blocks;
  private long bytesRead;

  SpillReadChannel(SpillBlockReader blocks) {
    super(new Unused());
    this.blocks = requireNonNull(blocks, "blocks is null");
  }

  @Override
  public int readFully(ByteBuffer buffer) throws IOException {
    int read = blocks.read(buffer);
    bytesRead += read;
    return read;
  }

  /** Appends up to {@code length} bytes at the buffer's writer index; returns how many it read. */
  @Override
  public long readFully(ArrowBuf buffer, long length) throws IOException {
    long read = blocks.read(buffer, buffer.writerIndex(), length);
    buffer.writerIndex(buffer.writerIndex() + read);
    bytesRead += read;
    return read;
  }

  @Override
  public long bytesRead() {
    return bytesRead;
  }

  @Override
  public void close() throws IOException {
    blocks.close();
  }

  /** Arrow's channel wants a byte channel; every read here comes from the blocks instead. */
  private static final class Unused implements ReadableByteChannel {
    @Override
    public int read(ByteBuffer target) {
      throw new IllegalStateException("Spill reads go through the block reader");
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
