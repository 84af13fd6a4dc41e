package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ipc.WriteChannel;

/**
 * The Arrow IPC write channel of a spill file: every write goes into a {@link SpillBlockWriter},
 * Arrow buffers copied straight into its block. Arrow's own channel would ask for a {@link
 * ByteBuffer} view of each buffer ({@code ArrowBuf.nioBuffer}), which needs {@code
 * DirectByteBuffer}'s private constructor, closed to a JVM without {@code
 * --add-opens=java.base/java.nio=ALL-UNNAMED} (a stock Trino server, for one). The channel keeps
 * its own position, which IPC alignment reads.
 */
final class SpillWriteChannel extends WriteChannel {
  private static final byte[] ZEROS = new byte[8];

  private final SpillBlockWriter blocks;
  private long position;

  SpillWriteChannel(SpillBlockWriter blocks) {
    super(new Unused());
    this.blocks = requireNonNull(blocks, "blocks is null");
  }

  @Override
  public long write(ByteBuffer buffer) throws IOException {
    int length = buffer.remaining();
    blocks.write(buffer);
    position += length;
    return length;
  }

  @Override
  public void write(ArrowBuf buffer) throws IOException {
    long length = buffer.readableBytes();
    blocks.write(buffer, buffer.readerIndex(), length);
    position += length;
  }

  @Override
  public long writeZeros(long length) throws IOException {
    for (long left = length; left > 0; left -= ZEROS.length) {
      write(ByteBuffer.wrap(ZEROS, 0, (int) Math.min(ZEROS.length, left)));
    }
    return length;
  }

  @Override
  public long align() throws IOException {
    int trailing = (int) (position % 8);
    return trailing == 0 ? 0 : writeZeros(8 - trailing);
  }

  @Override
  public long getCurrentPosition() {
    return position;
  }

  /** Closing the channel leaves the blocks to their owner. */
  @Override
  public void close() {}

  /** Arrow's channel wants a byte channel; every write here goes to the blocks instead. */
  private static final class Unused implements WritableByteChannel {
    @Override
    public int write(ByteBuffer source) {
      throw new IllegalStateException("Spill writes go through the block writer");
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
