package dev.lakeops.rewrite.sort;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ipc.WriteChannel;

/**
 * An Arrow IPC write channel that copies each buffer out through a heap array instead of asking
 * Arrow for a {@link java.nio.ByteBuffer} view of it: Arrow's view ({@code ArrowBuf.nioBuffer})
 * needs {@code DirectByteBuffer}'s private constructor, which a JVM without {@code
 * --add-opens=java.base/java.nio=ALL-UNNAMED} (a stock Trino server, for one) does not open.
 */
final class SpillWriteChannel extends WriteChannel {
  static final int CHUNK_BYTES = 64 * 1024;

  private final byte[] chunk = new byte[CHUNK_BYTES];

  SpillWriteChannel(WritableByteChannel out) {
    super(out);
  }

  @Override
  public void write(ArrowBuf buffer) throws IOException {
    long end = buffer.readerIndex() + buffer.readableBytes();
    for (long index = buffer.readerIndex(); index < end; ) {
      int length = (int) Math.min(CHUNK_BYTES, end - index);
      buffer.getBytes(index, chunk, 0, length);
      write(ByteBuffer.wrap(chunk, 0, length));
      index += length;
    }
  }
}
