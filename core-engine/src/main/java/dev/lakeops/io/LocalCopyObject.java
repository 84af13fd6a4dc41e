package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
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
      return new FileChannelInputStream(FileChannel.open(file));
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
}
