package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Collects the many small writes of an Arrow IPC writer (every buffer, its padding and each
 * message's metadata are separate writes) into one direct buffer, written to the file when full:
 * one system call per {@link #BUFFER_BYTES} instead of dozens per batch. Writes larger than the
 * buffer go straight to the file. Closing flushes, then closes the file.
 */
final class BufferedSpillChannel implements WritableByteChannel {
  static final int BUFFER_BYTES = 256 * 1024;

  private final FileChannel file;
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
  private boolean open = true;

  BufferedSpillChannel(FileChannel file) {
    this.file = requireNonNull(file, "file is null");
  }

  @Override
  public int write(ByteBuffer source) throws IOException {
    int length = source.remaining();
    if (length > buffer.remaining()) {
      flush();
      if (length > buffer.capacity() / 2) {
        while (source.hasRemaining()) {
          file.write(source);
        }
        return length;
      }
    }
    buffer.put(source);
    return length;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() throws IOException {
    if (!open) {
      return;
    }
    open = false;
    try (FileChannel closing = file) {
      flush();
    }
  }

  private void flush() throws IOException {
    buffer.flip();
    while (buffer.hasRemaining()) {
      file.write(buffer);
    }
    buffer.clear();
  }
}
