package dev.lakeops.deletes.equality;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One spill file per hash partition under a directory, written one record at a time through small
 * buffers and read back partition by partition.
 */
final class SpillPartitions implements AutoCloseable {
  static final int BUFFER_BYTES = 16 << 10;

  private final Path[] files;
  private final DataOutputStream[] outputs;
  private boolean closed;

  SpillPartitions(Path directory, String prefix, int partitions) {
    this.files = new Path[partitions];
    this.outputs = new DataOutputStream[partitions];
    try {
      for (int partition = 0; partition < partitions; partition++) {
        files[partition] = directory.resolve(prefix + "-" + partition + ".spill");
        outputs[partition] =
            new DataOutputStream(
                new BufferedOutputStream(Files.newOutputStream(files[partition]), BUFFER_BYTES));
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("Cannot create spill files in " + directory, e);
    }
  }

  DataOutputStream output(int partition) {
    return outputs[partition];
  }

  int partitions() {
    return files.length;
  }

  /** Opens the finished spill file of {@code partition}; call after {@link #close()}. */
  DataInputStream open(int partition) throws IOException {
    return new DataInputStream(
        new BufferedInputStream(Files.newInputStream(files[partition]), BUFFER_BYTES));
  }

  long bytes() {
    long bytes = 0;
    for (Path file : files) {
      try {
        bytes += file == null ? 0 : Files.size(file);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the size of spill file " + file, e);
      }
    }
    return bytes;
  }

  void delete(int partition) throws IOException {
    Files.deleteIfExists(files[partition]);
  }

  /** Flushes and closes every writer; safe to call twice. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    for (DataOutputStream output : outputs) {
      try {
        if (output != null) {
          output.close();
        }
      } catch (IOException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw new UncheckedIOException("Cannot write spill files", failure);
    }
  }
}
