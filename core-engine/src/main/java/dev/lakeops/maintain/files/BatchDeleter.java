package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes a stream of locations in batches, several batches at once. Uses {@link
 * SupportsBulkOperations#deleteFiles} when the FileIO has it (one request per batch on object
 * stores), else one {@link FileIO#deleteFile} per location. A failure is counted, never thrown: the
 * file stays and is found again by the next run.
 */
public final class BatchDeleter {
  public static final int DEFAULT_BATCH_SIZE = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(BatchDeleter.class);

  private final FileIO io;
  private final ExecutorService executor;
  private final int parallelism;
  private final int batchSize;

  public BatchDeleter(FileIO io, ExecutorService executor, int parallelism, int batchSize) {
    this.io = requireNonNull(io, "io is null");
    this.executor = requireNonNull(executor, "executor is null");
    if (parallelism < 1 || batchSize < 1) {
      throw new IllegalArgumentException(
          "Deletion parallelism and batch size must be at least 1, got "
              + parallelism
              + " and "
              + batchSize);
    }
    this.parallelism = parallelism;
    this.batchSize = batchSize;
  }

  public DeletionOutcome delete(Stream<String> locations) {
    AtomicLong deleted = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    Semaphore inFlight = new Semaphore(parallelism);
    List<Future<?>> futures = new ArrayList<>();
    List<String> batch = new ArrayList<>(batchSize);
    Iterator<String> iterator = locations.iterator();
    try {
      while (iterator.hasNext()) {
        batch.add(iterator.next());
        if (batch.size() == batchSize || !iterator.hasNext()) {
          List<String> full = List.copyOf(batch);
          batch.clear();
          inFlight.acquire();
          futures.add(
              executor.submit(
                  () -> {
                    try {
                      deleteBatch(full, deleted, failed);
                    } finally {
                      inFlight.release();
                    }
                  }));
        }
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while deleting files", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "A deletion batch failed: " + e.getCause().getMessage(), e.getCause());
    }
    return new DeletionOutcome(deleted.get(), failed.get());
  }

  private void deleteBatch(List<String> batch, AtomicLong deleted, AtomicLong failed) {
    if (io instanceof SupportsBulkOperations bulk) {
      try {
        bulk.deleteFiles(batch);
        deleted.addAndGet(batch.size());
      } catch (BulkDeletionFailureException e) {
        LOG.warn("{} of {} files could not be deleted", e.numberFailedObjects(), batch.size());
        failed.addAndGet(e.numberFailedObjects());
        deleted.addAndGet(batch.size() - e.numberFailedObjects());
      }
      return;
    }
    for (String location : batch) {
      try {
        io.deleteFile(location);
        deleted.incrementAndGet();
      } catch (RuntimeException e) {
        LOG.warn("Cannot delete {}: {}", location, e.toString());
        failed.incrementAndGet();
      }
    }
  }
}
