package dev.lakeops.trino.listener;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import io.airlift.log.Logger;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records, per completed query, which columns of which Iceberg tables it filtered, joined and
 * grouped on. The query path only enqueues the event: plan parsing runs on one daemon thread with a
 * bounded queue (events beyond it are dropped and counted), and the {@link TelemetryRecorder}
 * writes in batches on its own thread.
 */
public final class LakeOpsEventListener implements EventListener {
  private static final Logger log = Logger.get(LakeOpsEventListener.class);
  static final int QUEUE_CAPACITY = 1_000;

  private final TelemetryRecorder recorder;
  private final QueryTelemetryExtractor extractor;
  private final ThreadPoolExecutor executor;
  private final AtomicLong droppedQueries = new AtomicLong();

  public LakeOpsEventListener(TelemetryRecorder recorder, QueryTelemetryExtractor extractor) {
    this.recorder = requireNonNull(recorder, "recorder is null");
    this.extractor = requireNonNull(extractor, "extractor is null");
    this.executor =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUE_CAPACITY),
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-telemetry-extractor");
              thread.setDaemon(true);
              return thread;
            },
            (runnable, pool) -> droppedQueries.incrementAndGet());
  }

  @Override
  public void queryCompleted(QueryCompletedEvent event) {
    executor.execute(() -> record(event));
  }

  private void record(QueryCompletedEvent event) {
    try {
      for (TelemetryEvent telemetry : extractor.extract(event)) {
        recorder.record(telemetry);
      }
    } catch (RuntimeException e) {
      // Telemetry never fails a query; a plan we cannot read is logged and skipped
      log.warn(e, "Cannot record telemetry of query %s", event.getMetadata().getQueryId());
    }
  }

  /** Queries whose telemetry was dropped because the extraction queue was full. */
  public long droppedQueryCount() {
    return droppedQueries.get() + recorder.droppedEventCount();
  }

  /**
   * Waits until every query handed over so far was extracted and its events written to the store.
   *
   * @return false when {@code timeout} passed first, or the extraction queue was full (the marker
   *     then counts as a dropped query)
   */
  public boolean flush(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    // The extractor runs one task at a time, in order: a marker ends after every earlier query
    FutureTask<Void> marker = new FutureTask<>(() -> null);
    executor.execute(marker);
    try {
      marker.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("the flush marker failed", e);
    }
    return recorder.flush(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
  }

  @Override
  public void shutdown() {
    executor.shutdown();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    recorder.close();
  }
}
