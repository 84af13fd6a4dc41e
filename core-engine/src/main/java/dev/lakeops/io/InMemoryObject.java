package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An object's bytes in memory of the budget: an Arrow buffer, off the heap, so that the collector
 * never copies bytes that wait to be merged. {@link #release()} gives the buffer back; a stream
 * still open then fails its next read rather than read freed memory.
 */
final class InMemoryObject implements FetchedObject {
  private final ArrowBuf buffer;
  private final long length;
  private boolean released;

  /**
   * @param buffer holds the object's bytes from index 0; at least {@code length} bytes
   */
  InMemoryObject(ArrowBuf buffer, long length) {
    this.buffer = requireNonNull(buffer, "buffer is null");
    if (length < 0 || length > buffer.capacity()) {
      throw new IllegalArgumentException(
          "Invalid length " + length + " for a buffer of " + buffer.capacity() + " bytes");
    }
    this.length = length;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new BufferStream();
  }

  @Override
  public synchronized boolean isReleased() {
    return released;
  }

  @Override
  public synchronized void release() {
    if (!released) {
      released = true;
      buffer.close();
    }
  }

  /** Copies {@code count} bytes at {@code position} into {@code target}, unless released. */
  private synchronized void copy(long position, byte[] target, int offset, int count)
      throws IOException {
    if (released) {
      throw new IOException("The fetched bytes were given back before the stream was read");
    }
    buffer.getBytes(position, target, offset, count);
  }

  /** A seekable stream over the buffer; each stream has a position of its own. */
  private final class BufferStream extends SeekableInputStream {
    private long position;

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPosition) throws IOException {
      if (newPosition < 0 || newPosition > length) {
        throw new EOFException(
            "Cannot seek to " + newPosition + " in an object of " + length + " bytes");
      }
      position = newPosition;
    }

    @Override
    public int read() throws IOException {
      if (position >= length) {
        return -1;
      }
      byte[] one = new byte[1];
      copy(position++, one, 0, 1);
      return one[0] & 0xFF;
    }

    @Override
    public int read(byte[] target, int offset, int count) throws IOException {
      if (count == 0) {
        return 0;
      }
      int readable = (int) Math.min(count, length - position);
      if (readable <= 0) {
        return -1;
      }
      copy(position, target, offset, readable);
      position += readable;
      return readable;
    }

    @Override
    public long skip(long count) {
      long skipped = Math.max(0, Math.min(count, length - position));
      position += skipped;
      return skipped;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, length - position);
    }
  }
}
