package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.iceberg.io.FileIO;

/**
 * Rewrites file groups in parallel, up to the configured concurrency. If any group fails (and the
 * caller does not let the run go on without it), the others are cancelled and every file already
 * written is deleted.
 */
final class GroupRunner {
  private static final System.Logger LOG = System.getLogger(GroupRunner.class.getName());

  /** How long a failed run waits for its cancelled groups to stop. */
  private static final Duration STOP_WAIT = Duration.ofMinutes(1);

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

  /** Rewrites every group and returns them all; see {@link #run(List, Consumer)}. */
  List<RewrittenGroup> run(List<FileGroup> groups) {
    List<RewrittenGroup> results = new ArrayList<>();
    run(groups, results::add);
    return results;
  }

  /**
   * Rewrites {@code groups} and hands each result to {@code onRewritten} on the calling thread as
   * soon as it is done, while other groups are still being rewritten. A group handed over belongs
   * to the consumer from then on. If a rewrite or the consumer fails, the other rewrites are
   * cancelled and the files of every group not yet handed over are deleted.
   */
  void run(List<FileGroup> groups, Consumer<RewrittenGroup> onRewritten) {
    run(
        groups,
        onRewritten,
        (group, failure) -> {
          throw failure;
        });
  }

  /**
   * As {@link #run(List, Consumer)}, except that a group whose rewrite fails with a runtime
   * exception (it cleaned up its own files) goes to {@code onFailed} on the calling thread; the run
   * goes on unless {@code onFailed} throws.
   */
  void run(
      List<FileGroup> groups,
      Consumer<RewrittenGroup> onRewritten,
      BiConsumer<FileGroup, RuntimeException> onFailed) {
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService executor =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(concurrency, groups.size())),
            runnable -> {
              Thread thread =
                  new Thread(runnable, "lakeops-rewrite-" + threadNumber.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    CompletionService<RewrittenGroup> completion = new ExecutorCompletionService<>(executor);
    List<Future<RewrittenGroup>> futures = new ArrayList<>();
    Map<Future<RewrittenGroup>, FileGroup> groupOf = new HashMap<>();
    Set<Future<RewrittenGroup>> handedOver = new HashSet<>();
    FinishedGroups finished = new FinishedGroups();
    try {
      for (FileGroup group : groups) {
        Future<RewrittenGroup> future =
            completion.submit(
                () -> {
                  RewrittenGroup rewritten = rewriter.rewrite(group);
                  if (!finished.keep(rewritten)) {
                    CancellationException abandoned =
                        new CancellationException(
                            "File group " + group.index() + " finished after its run failed");
                    OutputCleaner.deleteQuietly(io, rewritten.addedFiles(), abandoned);
                    throw abandoned;
                  }
                  listener.groupRewritten(rewritten);
                  return rewritten;
                });
        futures.add(future);
        groupOf.put(future, group);
      }
      for (int done = 0; done < futures.size(); done++) {
        Future<RewrittenGroup> future = completion.take();
        RewrittenGroup rewritten;
        try {
          rewritten = future.get();
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (!(cause instanceof RuntimeException runtime)) {
            throw new IllegalStateException(cause);
          }
          handedOver.add(future);
          onFailed.accept(groupOf.get(future), runtime);
          continue;
        }
        handedOver.add(future);
        finished.handOver(rewritten);
        onRewritten.accept(rewritten);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failAndClean(futures, finished, new IllegalStateException("Compaction interrupted", e));
    } catch (RuntimeException e) {
      throw failAndClean(futures, finished, e);
    } finally {
      executor.shutdownNow();
      awaitStopped(executor);
    }
  }

  /**
   * Waits for cancelled groups to stop: the caller closes the memory budget next, and a group still
   * holding buffers then makes Arrow log a leak on stderr.
   */
  private static void awaitStopped(ExecutorService executor) {
    try {
      if (!executor.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.log(
            System.Logger.Level.WARNING,
            "Cancelled file groups still run after " + STOP_WAIT + "; going on without them");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Cancels the groups still running and deletes the files of every group that finished without
   * being handed over. A group that finishes after this deletes its own files ({@link
   * FinishedGroups#keep}), so no file outlives a failed run whatever the moment a group ends.
   */
  private RuntimeException failAndClean(
      List<Future<RewrittenGroup>> futures, FinishedGroups finished, RuntimeException failure) {
    List<RewrittenGroup> leftOver = finished.abandon();
    for (Future<RewrittenGroup> future : futures) {
      future.cancel(true);
    }
    for (RewrittenGroup group : leftOver) {
      OutputCleaner.deleteQuietly(io, group.addedFiles(), failure);
    }
    return failure;
  }

  /**
   * The groups that finished, until the run fails: from then on a group that finishes is refused,
   * and those finished but not handed over are the failed run's to delete.
   */
  private static final class FinishedGroups {
    private final Set<RewrittenGroup> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean abandoned;

    /** Whether the run still takes {@code group}; false once it failed. */
    synchronized boolean keep(RewrittenGroup group) {
      if (abandoned) {
        return false;
      }
      waiting.add(group);
      return true;
    }

    /** {@code group} now belongs to the consumer. */
    synchronized void handOver(RewrittenGroup group) {
      waiting.remove(group);
    }

    /** Refuses every later group and returns those finished but not handed over. */
    synchronized List<RewrittenGroup> abandon() {
      abandoned = true;
      List<RewrittenGroup> leftOver = List.copyOf(waiting);
      waiting.clear();
      return leftOver;
    }
  }
}
