package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A parallel directory walk seen as an iterator. Each directory is one task; tasks put the files
 * they find into a bounded queue, so memory stays flat however many files there are. The last task
 * to finish puts an end marker.
 */
final class DirectoryWalk implements Iterator<ListedFile>, AutoCloseable {
  private static final int QUEUE_CAPACITY = 10_000;
  private static final ListedFile END = new ListedFile("", 0, Instant.EPOCH);

  private final FileSystem fileSystem;
  private final ExecutorService executor;
  private final BlockingQueue<ListedFile> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final AtomicInteger pendingDirectories = new AtomicInteger();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private volatile boolean closed;
  private ListedFile next;
  private boolean finished;

  DirectoryWalk(FileSystem fileSystem, int parallelism) {
    this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    this.executor =
        Executors.newFixedThreadPool(
            parallelism,
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-list");
              thread.setDaemon(true);
              return thread;
            });
  }

  void start(Path root) {
    submit(root);
  }

  private void submit(Path directory) {
    pendingDirectories.incrementAndGet();
    executor.execute(() -> walk(directory));
  }

  private void walk(Path directory) {
    try {
      if (closed || failure.get() != null) {
        return;
      }
      for (FileStatus status : fileSystem.listStatus(directory)) {
        if (FileLister.isHidden(status.getPath().getName())) {
          continue;
        }
        if (status.isDirectory()) {
          submit(status.getPath());
        } else {
          put(
              new ListedFile(
                  status.getPath().toString(),
                  status.getLen(),
                  Instant.ofEpochMilli(status.getModificationTime())));
        }
      }
    } catch (FileNotFoundException vanished) {
      // a directory removed while we walk holds nothing to list
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, e);
    } finally {
      if (pendingDirectories.decrementAndGet() == 0) {
        put(END);
      }
    }
  }

  private void put(ListedFile file) {
    try {
      while (!closed) {
        if (queue.offer(file, 100, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    if (finished) {
      return false;
    }
    try {
      ListedFile taken = queue.take();
      if (taken == END) {
        finished = true;
        Exception error = failure.get();
        if (error != null) {
          throw error instanceof IOException io
              ? new UncheckedIOException("Cannot list files: " + io.getMessage(), io)
              : (RuntimeException) error;
        }
        return false;
      }
      next = taken;
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while listing files", e);
    }
  }

  @Override
  public ListedFile next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ListedFile result = next;
    next = null;
    return result;
  }

  /** Stops the walk; safe to call twice. */
  @Override
  public void close() {
    closed = true;
    executor.shutdownNow();
    queue.clear();
  }
}
