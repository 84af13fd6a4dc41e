package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ipc.ReadChannel;

/**
 * An Arrow IPC read channel that fills each buffer through a heap array instead of reading into a
 * {@link java.nio.ByteBuffer} view of it, for the reason {@link SpillWriteChannel} gives.
 */
final class SpillReadChannel extends ReadChannel {
  private final byte[] chunk = new byte[SpillWriteChannel.CHUNK_BYTES];

  SpillReadChannel(ReadableByteChannel in) {
    super(in);
  }

  /** Appends up to {@code length} bytes at the buffer's writer index; returns how many it read. */
  @Override
  public long readFully(ArrowBuf buffer, long length) throws IOException {
    long remaining = length;
    while (remaining > 0) {
      int wanted = (int) Math.min(chunk.length, remaining);
      int read = readFully(ByteBuffer.wrap(chunk, 0, wanted));
      buffer.setBytes(buffer.writerIndex(), chunk, 0, read);
      buffer.writerIndex(buffer.writerIndex() + read);
      remaining -= read;
      if (read < wanted) {
        break;
      }
    }
    return length - remaining;
  }
}
