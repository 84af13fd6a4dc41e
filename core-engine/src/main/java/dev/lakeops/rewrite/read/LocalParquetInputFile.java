package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A file on the local file system as a Parquet {@link InputFile}, read through one {@link
 * FileChannel} with positional reads: no Hadoop stream, no {@code .crc} checksum file.
 */
final class LocalParquetInputFile implements InputFile {
  private final Path path;
  private final long length;

  /**
   * @param length the file's length in bytes, as the table's metadata records it
   */
  LocalParquetInputFile(Path path, long length) {
    this.path = requireNonNull(path, "path is null");
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new ChannelStream(FileChannel.open(path, StandardOpenOption.READ));
  }

  @Override
  public String toString() {
    return path.toString();
  }

  /** Reads at a position of its own, each read one positional read of the channel. */
  private static final class ChannelStream extends SeekableInputStream {
    private final FileChannel channel;
    private long position;

    private ChannelStream(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPosition) {
      this.position = newPosition;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int count) throws IOException {
      return read(ByteBuffer.wrap(bytes, offset, count));
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(ByteBuffer.wrap(bytes));
    }

    @Override
    public void readFully(byte[] bytes, int start, int count) throws IOException {
      readFully(ByteBuffer.wrap(bytes, start, count));
    }

    @Override
    public int read(ByteBuffer buffer) throws IOException {
      if (!buffer.hasRemaining()) {
        return 0;
      }
      int read = channel.read(buffer, position);
      if (read > 0) {
        position += read;
      }
      return read;
    }

    @Override
    public void readFully(ByteBuffer buffer) throws IOException {
      while (buffer.hasRemaining()) {
        int read = channel.read(buffer, position);
        if (read < 0) {
          throw new EOFException(
              "Reached the end of the file with " + buffer.remaining() + " bytes left to read");
        }
        position += read;
      }
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
