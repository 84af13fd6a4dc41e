package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/**
 * Warms the S3 server up before any timed phase, latency off: every data file of the source table
 * read whole, {@link #ROUNDS} times, 16 at a time; then as many bytes written and deleted again
 * through the table's FileIO, in objects of {@link #WRITTEN_OBJECT_BYTES} (multipart uploads, as a
 * compaction's outputs are). The server runs in the benchmark's JVM; cold, its request paths
 * (reads, and the uploads with their chunk signatures) compile while the first phase runs and take
 * CPU from whichever engine runs first (LakeOps, at each latency). The server is infrastructure,
 * not part of either engine.
 */
final class ObjectStoreWarmUp {
  private static final int ROUNDS = 2;
  private static final int THREADS = 16;
  private static final int WRITTEN_OBJECT_BYTES = 64 << 20;
  private static final int WRITE_BUFFER_BYTES = 1 << 20;

  private ObjectStoreWarmUp() {}

  static void readAll(Table source) throws InterruptedException {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = source.newScan().planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + source.name(), e);
    }
    FileIO io = source.io();
    ExecutorService executor = Executors.newFixedThreadPool(THREADS);
    try {
      for (int round = 0; round < ROUNDS; round++) {
        List<Future<Long>> reads = new ArrayList<>();
        for (String location : locations) {
          reads.add(executor.submit(() -> readWhole(io, location)));
        }
        for (Future<Long> read : reads) {
          read.get();
        }
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("Cannot warm the S3 server up: " + e.getCause(), e);
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * Writes {@code bytes} in objects of {@link #WRITTEN_OBJECT_BYTES} under {@code prefix} through
   * {@code io}, {@link #ROUNDS} times, and deletes them.
   */
  static void writeAndDelete(FileIO io, String prefix, long bytes) {
    byte[] buffer = new byte[WRITE_BUFFER_BYTES];
    new Random(7).nextBytes(buffer);
    for (int round = 0; round < ROUNDS; round++) {
      long left = bytes;
      for (int index = 0; left > 0; index++) {
        String location = prefix + "/round-" + round + "/object-" + index + ".bin";
        long objectBytes = Math.min(left, WRITTEN_OBJECT_BYTES);
        try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
          for (long written = 0; written < objectBytes; written += buffer.length) {
            out.write(buffer, 0, (int) Math.min(buffer.length, objectBytes - written));
          }
        } catch (IOException e) {
          throw new UncheckedIOException("Cannot warm the S3 server up writing " + location, e);
        }
        io.deleteFile(location);
        left -= objectBytes;
      }
    }
  }

  private static long readWhole(FileIO io, String location) throws IOException {
    try (InputStream in = io.newInputFile(location).newStream()) {
      return in.transferTo(OutputStream.nullOutputStream());
    }
  }
}
