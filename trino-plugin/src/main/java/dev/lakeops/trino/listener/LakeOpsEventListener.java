package dev.lakeops.trino.listener;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import io.airlift.log.Logger;
import io.trino.spi.eventlistener.EventListener;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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

  /** Waits until every query handed over so far has been extracted and queued to the recorder. */
  public void awaitExtracted(long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while ((executor.getActiveCount() > 0 || !executor.getQueue().isEmpty())
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(10);
    }
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
