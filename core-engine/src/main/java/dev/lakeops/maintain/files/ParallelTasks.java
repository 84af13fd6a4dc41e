package dev.lakeops.maintain.files;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** Runs one task per item on an executor and waits for all; the first failure is rethrown. */
public final class ParallelTasks {
  private ParallelTasks() {}

  /** A fixed pool of daemon threads named {@code lakeops-<name>-N}; the caller shuts it down. */
  public static ExecutorService newPool(String name, int threads) {
    AtomicInteger counter = new AtomicInteger();
    return Executors.newFixedThreadPool(
        Math.max(1, threads),
        runnable -> {
          Thread thread = new Thread(runnable, "lakeops-" + name + "-" + counter.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }

  public static <T> void forEach(ExecutorService executor, Collection<T> items, Consumer<T> task) {
    List<Future<?>> futures = new ArrayList<>(items.size());
    for (T item : items) {
      futures.add(executor.submit(() -> task.accept(item)));
    }
    try {
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (InterruptedException e) {
      futures.forEach(future -> future.cancel(true));
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    } catch (ExecutionException e) {
      futures.forEach(future -> future.cancel(true));
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause.getMessage(), cause);
    }
  }
}
