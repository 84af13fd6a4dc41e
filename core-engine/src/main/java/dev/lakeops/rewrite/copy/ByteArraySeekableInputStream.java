package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link SeekableInputStream} over bytes loaded from a file, addressed by the file
 * offsets they came from.
 */
final class ByteArraySeekableInputStream extends SeekableInputStream {
  private final byte[] bytes;
  private final long fileOffset;
  private int position;

  ByteArraySeekableInputStream(byte[] bytes, long fileOffset) {
    this.bytes = requireNonNull(bytes, "bytes is null");
    this.fileOffset = fileOffset;
  }

  @Override
  public long getPos() {
    return fileOffset + position;
  }

  @Override
  public void seek(long filePosition) throws EOFException {
    long relative = filePosition - fileOffset;
    if (relative < 0 || relative > bytes.length) {
      throw new EOFException(
          "Position " + filePosition + " is outside the loaded range starting at " + fileOffset);
    }
    position = (int) relative;
  }

  @Override
  public int read() {
    if (position >= bytes.length) {
      return -1;
    }
    return bytes[position++] & 0xFF;
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
  public void readFully(byte[] target) throws EOFException {
    readFully(target, 0, target.length);
  }

  @Override
  public void readFully(byte[] target, int offset, int length) throws EOFException {
    if (length > bytes.length - position) {
      throw new EOFException("Reached the end of the loaded bytes at " + getPos());
    }
    System.arraycopy(bytes, position, target, offset, length);
    position += length;
  }

  @Override
  public int read(ByteBuffer target) {
    int count = Math.min(target.remaining(), bytes.length - position);
    if (count <= 0) {
      return target.remaining() == 0 ? 0 : -1;
    }
    target.put(bytes, position, count);
    position += count;
    return count;
  }

  @Override
  public void readFully(ByteBuffer target) throws EOFException {
    if (target.remaining() > bytes.length - position) {
      throw new EOFException("Reached the end of the loaded bytes at " + getPos());
    }
    read(target);
  }
}
