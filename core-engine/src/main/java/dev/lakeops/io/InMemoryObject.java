package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.io.IOException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An object's bytes on the heap. They are charged to the memory budget by {@code reservation}, an
 * untouched Arrow buffer of the same size, which {@link #release()} gives back.
 */
final class InMemoryObject implements FetchedObject {
  private final byte[] bytes;
  private final ArrowBuf reservation;
  private boolean released;

  InMemoryObject(byte[] bytes, ArrowBuf reservation) {
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.reservation = requireNonNull(reservation, "reservation is null");
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new ByteStream(bytes);
  }

  @Override
  public synchronized boolean isReleased() {
    return released;
  }

  @Override
  public synchronized void release() {
    if (!released) {
      released = true;
      reservation.close();
    }
  }

  /** A seekable stream over a byte array. */
  private static final class ByteStream extends SeekableInputStream {
    private final byte[] bytes;
    private int position;

    ByteStream(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void seek(long newPosition) throws IOException {
      if (newPosition < 0 || newPosition > bytes.length) {
        throw new EOFException(
            "Cannot seek to " + newPosition + " in an object of " + bytes.length + " bytes");
      }
      position = (int) newPosition;
    }

    @Override
    public int read() {
      return position < bytes.length ? bytes[position++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      int count = Math.min(length, bytes.length - position);
      if (count <= 0) {
        return -1;
      }
      System.arraycopy(bytes, position, target, offset, count);
      position += count;
      return count;
    }

    @Override
    public long skip(long count) {
      long skipped = Math.max(0, Math.min(count, bytes.length - position));
      position += (int) skipped;
      return skipped;
    }

    @Override
    public int available() {
      return bytes.length - position;
    }
  }
}
