package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.io.FileIO;

/**
 * Rewrites file groups in parallel, up to the configured concurrency. If any group fails, the
 * others are cancelled and every file already written is deleted.
 */
final class GroupRunner {
  private final GroupRewriter rewriter;
  private final int concurrency;
  private final FileIO io;
  private final CompactionListener listener;

  GroupRunner(GroupRewriter rewriter, int concurrency, FileIO io, CompactionListener listener) {
    this.rewriter = requireNonNull(rewriter, "rewriter is null");
    this.concurrency = concurrency;
    this.io = requireNonNull(io, "io is null");
    this.listener = requireNonNull(listener, "listener is null");
  }

  List<RewrittenGroup> run(List<FileGroup> groups) {
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(concurrency, groups.size())),
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-rewrite-" + threadNumber.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    List<Future<RewrittenGroup>> futures = new ArrayList<>();
    try {
      for (FileGroup group : groups) {
        futures.add(
            executor.submit(
                () -> {
                  RewrittenGroup rewritten = rewriter.rewrite(group);
                  listener.groupRewritten(rewritten);
                  return rewritten;
                }));
      }
      List<RewrittenGroup> results = new ArrayList<>();
      for (Future<RewrittenGroup> future : futures) {
        results.add(future.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failAndClean(futures, new IllegalStateException("Compaction interrupted", e));
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      RuntimeException failure =
          cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
      throw failAndClean(futures, failure);
    } finally {
      executor.shutdownNow();
    }
  }

  private RuntimeException failAndClean(List<Future<RewrittenGroup>> futures, RuntimeException failure) {
    for (Future<RewrittenGroup> future : futures) {
      future.cancel(true);
    }
    for (Future<RewrittenGroup> future : futures) {
      try {
        if (future.isDone() && !future.isCancelled()) {
          OutputCleaner.deleteQuietly(io, future.get().addedFiles(), failure);
        }
      } catch (InterruptedException | ExecutionException | RuntimeException ignored) {
        // that group failed itself and cleaned up its own files
      }
    }
    return failure;
  }
}
