package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An Iceberg stream over a local file's channel, reading at explicit positions: one system call a
 * read, no checksum files, no extra stat calls. Closes the channel.
 */
public final class FileChannelInputStream extends SeekableInputStream {
  private final FileChannel channel;
  private long position;

  public FileChannelInputStream(FileChannel channel) {
    this.channel = requireNonNull(channel, "channel is null");
  }

  @Override
  public long getPos() {
    return position;
  }

  @Override
  public void seek(long newPosition) throws IOException {
    if (newPosition < 0) {
      throw new EOFException("Cannot seek to a negative position " + newPosition);
    }
    position = newPosition;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] target, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    int count = channel.read(ByteBuffer.wrap(target, offset, length), position);
    if (count > 0) {
      position += count;
    }
    return count;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
