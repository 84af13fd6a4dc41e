package dev.lakeops.verify;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * An order-independent fingerprint of a table's live rows (deletes applied): the row count and the
 * wrapping sum of a 64-bit hash of every row's canonical form ({@link RowHasher}). Two tables with
 * the same rows in any order and file layout have equal fingerprints.
 *
 * <p>The sum is commutative, so every data file is fingerprinted on its own, on a bounded pool of
 * threads (one per processor unless told otherwise), and the per-file fingerprints add up to the
 * table's.
 */
public record RowFingerprint(long rowCount, long checksum) {
  private static final RowFingerprint EMPTY = new RowFingerprint(0, 0);

  public static RowFingerprint of(Table table) {
    return of(table, table.currentSnapshot() == null ? null : table.currentSnapshot().snapshotId());
  }

  public static RowFingerprint of(Table table, Long snapshotId) {
    return of(table, snapshotId, Runtime.getRuntime().availableProcessors());
  }

  /**
   * The fingerprint of {@code table} at {@code snapshotId} (empty when {@code null}), its data
   * files read by at most {@code threads} threads.
   */
  public static RowFingerprint of(Table table, Long snapshotId, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    if (snapshotId == null) {
      return EMPTY;
    }
    List<FileScanTask> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      tasks.forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan the files of table " + table.name(), e);
    }
    LiveRecordReader reader = new LiveRecordReader(table);
    int poolSize = Math.min(threads, files.size());
    if (poolSize <= 1) {
      RowFingerprint sum = EMPTY;
      for (FileScanTask file : files) {
        sum = sum.plus(reader.fingerprint(file));
      }
      return sum;
    }
    return inParallel(table, files, reader, poolSize);
  }

  /** The fingerprint of both rows sets together. */
  public RowFingerprint plus(RowFingerprint other) {
    return new RowFingerprint(rowCount + other.rowCount, checksum + other.checksum);
  }

  private static RowFingerprint inParallel(
      Table table, List<FileScanTask> files, LiveRecordReader reader, int poolSize) {
    ExecutorService pool = Executors.newFixedThreadPool(poolSize, daemonThreads());
    try {
      List<Future<RowFingerprint>> parts = new ArrayList<>(files.size());
      for (FileScanTask file : files) {
        parts.add(pool.submit(() -> reader.fingerprint(file)));
      }
      RowFingerprint sum = EMPTY;
      for (Future<RowFingerprint> part : parts) {
        sum = sum.plus(part.get());
      }
      return sum;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted fingerprinting table " + table.name(), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("Cannot fingerprint table " + table.name(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "row-fingerprint-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
