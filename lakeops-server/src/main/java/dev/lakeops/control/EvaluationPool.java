package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.policy.PolicyResolver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Evaluates tables on a bounded pool of threads ({@code evaluation-threads}), so that a large lake
 * is looked at in parallel while the scheduling thread keeps dispatching work. The scheduling
 * thread submits a table, leaves its watch alone until the result is collected, and applies results
 * it collects with {@link #collect}. A worker touches only the watch's table and tracker.
 */
final class EvaluationPool implements AutoCloseable {
  private final Catalog catalog;
  private final PolicyResolver policies;
  private final int threads;
  private final Runnable wake;
  private final ExecutorService executor;
  private final Set<TableIdentifier> inFlight = new HashSet<>();
  private final ConcurrentLinkedQueue<Evaluated> done = new ConcurrentLinkedQueue<>();

  /**
   * One look at a table, done: its evaluation, or why there is none.
   *
   * @param watch the table's watch
   * @param at when the evaluation was asked for
   * @param evaluation the evaluation; empty when {@code failure} says why
   * @param failure what went wrong; null on success
   */
  record Evaluated(
      TableWatch watch,
      Instant at,
      Optional<TableEvaluation> evaluation,
      RuntimeException failure) {
    Evaluated {
      requireNonNull(watch, "watch is null");
      requireNonNull(at, "at is null");
      requireNonNull(evaluation, "evaluation is null");
    }
  }

  /**
   * @param wake called by a worker after it finished an evaluation, to wake the scheduling thread
   */
  EvaluationPool(Catalog catalog, PolicyResolver policies, int threads, Runnable wake) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.policies = requireNonNull(policies, "policies is null");
    this.wake = requireNonNull(wake, "wake is null");
    if (threads < 1) {
      throw new IllegalArgumentException("evaluation-threads must be at least 1, got " + threads);
    }
    this.threads = threads;
    AtomicInteger count = new AtomicInteger();
    this.executor =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread =
                  new Thread(runnable, "lakeops-serve-evaluation-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Whether another table can be submitted now: at most two per thread wait or run. */
  boolean hasRoom() {
    return inFlight.size() < 2 * threads;
  }

  boolean isEvaluating(TableIdentifier table) {
    return inFlight.contains(table);
  }

  int inFlight() {
    return inFlight.size();
  }

  /** Evaluates {@code watch}'s table on a worker; {@link #collect} hands the result back. */
  void submit(TableWatch watch, Instant now) {
    requireNonNull(watch, "watch is null");
    requireNonNull(now, "now is null");
    inFlight.add(watch.identifier);
    executor.execute(
        () -> {
          try {
            done.add(evaluate(watch, now));
          } catch (Error e) {
            // hand the table back whatever happened, or it would never be evaluated again
            done.add(
                new Evaluated(
                    watch, now, Optional.empty(), new IllegalStateException(e.toString(), e)));
            throw e;
          } finally {
            wake.run();
          }
        });
  }

  /** The evaluations finished since the last call; called by the scheduling thread only. */
  List<Evaluated> collect() {
    List<Evaluated> collected = new ArrayList<>();
    Evaluated next;
    while ((next = done.poll()) != null) {
      inFlight.remove(next.watch().identifier);
      collected.add(next);
    }
    return collected;
  }

  private Evaluated evaluate(TableWatch watch, Instant now) {
    try {
      boolean loaded = watch.table == null;
      if (loaded) {
        watch.table = catalog.loadTable(watch.identifier);
      }
      // a table just loaded is current: refreshing it would ask the catalog twice
      TableEvaluation evaluation =
          loaded
              ? TableEvaluation.ofCurrent(
                  watch.identifier, watch.table, watch.tracker, policies, watch.history, now)
              : TableEvaluation.of(
                  watch.identifier, watch.table, watch.tracker, policies, watch.history, now);
      return new Evaluated(watch, now, Optional.of(evaluation), null);
    } catch (RuntimeException e) {
      return new Evaluated(watch, now, Optional.empty(), e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
