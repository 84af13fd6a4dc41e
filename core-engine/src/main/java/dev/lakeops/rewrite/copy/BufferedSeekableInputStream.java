package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link SeekableInputStream} over an Iceberg one, reading through a buffer so that small
 * reads (page headers, footers) never become one system call each. Closes its delegate.
 */
final class BufferedSeekableInputStream extends SeekableInputStream {
  static final int DEFAULT_BUFFER_BYTES = 1 << 20;

  /** Reads at least this long skip the buffer, as do reads at least as long as the buffer. */
  private static final int DIRECT_READ_BYTES = 64 * 1024;

  private final org.apache.iceberg.io.SeekableInputStream delegate;
  private final int bufferBytes;
  private byte[] buffer;
  private long delegatePosition;
  private long bufferStart;
  private int bufferLength;
  private int bufferPosition;
  private boolean closed;

  BufferedSeekableInputStream(org.apache.iceberg.io.SeekableInputStream delegate, int bufferBytes)
      throws IOException {
    this.delegate = requireNonNull(delegate, "delegate is null");
    if (bufferBytes <= 0) {
      throw new IllegalArgumentException("bufferBytes must be positive: " + bufferBytes);
    }
    // Allocated on the first small read: a stream that only loads whole row groups needs none
    this.bufferBytes = bufferBytes;
    this.delegatePosition = delegate.getPos();
    this.bufferStart = delegatePosition;
  }

  @Override
  public long getPos() {
    return bufferStart + bufferPosition;
  }

  @Override
  public void seek(long position) throws IOException {
    if (position >= bufferStart && position <= bufferStart + bufferLength) {
      bufferPosition = (int) (position - bufferStart);
      return;
    }
    bufferStart = position;
    bufferLength = 0;
    bufferPosition = 0;
  }

  @Override
  public int read() throws IOException {
    if (bufferPosition == bufferLength && !fill()) {
      return -1;
    }
    return buffer[bufferPosition++] & 0xFF;
  }

  @Override
  public int read(byte[] target, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    int buffered = bufferLength - bufferPosition;
    if (buffered > 0) {
      int count = Math.min(buffered, length);
      System.arraycopy(buffer, bufferPosition, target, offset, count);
      bufferPosition += count;
      return count;
    }
    if (length >= Math.min(bufferBytes, DIRECT_READ_BYTES)) {
      long position = getPos();
      positionDelegate(position);
      int count = delegate.read(target, offset, length);
      if (count > 0) {
        delegatePosition += count;
        bufferStart = position + count;
        bufferLength = 0;
        bufferPosition = 0;
      }
      return count;
    }
    if (!fill()) {
      return -1;
    }
    return read(target, offset, length);
  }

  @Override
  public void readFully(byte[] target) throws IOException {
    readFully(target, 0, target.length);
  }

  @Override
  public void readFully(byte[] target, int offset, int length) throws IOException {
    int done = 0;
    while (done < length) {
      int count = read(target, offset + done, length - done);
      if (count < 0) {
        throw new EOFException(
            "Reached the end of the stream with " + (length - done) + " bytes left to read");
      }
      done += count;
    }
  }

  @Override
  public int read(ByteBuffer target) throws IOException {
    int length = target.remaining();
    if (length == 0) {
      return 0;
    }
    byte[] chunk = new byte[length];
    int count = read(chunk, 0, length);
    if (count > 0) {
      target.put(chunk, 0, count);
    }
    return count;
  }

  @Override
  public void readFully(ByteBuffer target) throws IOException {
    byte[] chunk = new byte[target.remaining()];
    readFully(chunk, 0, chunk.length);
    target.put(chunk);
  }

  @Override
  public long skip(long count) throws IOException {
    if (count <= 0) {
      return 0;
    }
    seek(getPos() + count);
    return count;
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      delegate.close();
    }
  }

  private boolean fill() throws IOException {
    if (buffer == null) {
      buffer = new byte[bufferBytes];
    }
    long position = getPos();
    positionDelegate(position);
    int count = delegate.read(buffer, 0, buffer.length);
    bufferStart = position;
    bufferPosition = 0;
    bufferLength = Math.max(count, 0);
    if (count > 0) {
      delegatePosition += count;
    }
    return count > 0;
  }

  private void positionDelegate(long position) throws IOException {
    if (delegatePosition != position) {
      delegate.seek(position);
      delegatePosition = position;
    }
  }
}
