package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An object's bytes copied to a local file in the spill directory, for objects fetched ahead when
 * the memory set aside for fetching is taken. {@link #release()} deletes the file.
 */
final class LocalCopyObject implements FetchedObject {
  private final Path file;
  private final long length;
  private boolean released;

  LocalCopyObject(Path file, long length) {
    this.file = requireNonNull(file, "file is null");
    this.length = length;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    try {
      return new ChannelStream(FileChannel.open(file));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the local copy " + file, e);
    }
  }

  @Override
  public synchronized boolean isReleased() {
    return released;
  }

  @Override
  public synchronized void release() {
    if (!released) {
      released = true;
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot delete the local copy " + file, e);
      }
    }
  }

  /** A seekable stream over a local file's channel, reading at explicit positions. */
  private static final class ChannelStream extends SeekableInputStream {
    private final FileChannel channel;
    private long position;

    ChannelStream(FileChannel channel) {
      this.channel = channel;
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
}
