package dev.lakeops.telemetry.recorder;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.store.EventRetention;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records telemetry without ever blocking the host's query path. {@link #record} puts the event on
 * a bounded queue and returns at once; when the queue is full the event is dropped and counted. A
 * background thread writes queued events to the store in batches and applies retention. {@link
 * #close} writes everything still queued, then closes the store.
 */
public final class TelemetryRecorder implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TelemetryRecorder.class.getName());

  private final TelemetryStore store;
  private final RecorderOptions options;
  private final Optional<EventRetention> retention;
  private final Clock clock;
  private final BlockingQueue<TelemetryEvent> queue;
  private final AtomicLong acceptedEvents = new AtomicLong();
  private final AtomicLong droppedEvents = new AtomicLong();
  private final AtomicLong writtenEvents = new AtomicLong();
  private final AtomicLong failedEvents = new AtomicLong();
  private final Object progress = new Object();
  private final Thread flusher;
  private volatile boolean accepting = true;
  private Instant nextRetention;

  private TelemetryRecorder(TelemetryStore store, RecorderOptions options, Clock clock) {
    this.store = requireNonNull(store, "store is null");
    this.options = requireNonNull(options, "options is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.retention = options.retention().map(maximumAge -> new EventRetention(maximumAge, clock));
    this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
    this.nextRetention = clock.instant();
    this.flusher = new Thread(this::runFlusher, "lakeops-telemetry-flusher");
    this.flusher.setDaemon(true);
  }

  /** Opens the store named by {@code configuration} and records into it with default options. */
  public static TelemetryRecorder open(String configuration) {
    return open(configuration, RecorderOptions.defaults());
  }

  /**
   * Opens the store named by {@code configuration}, e.g. {@code sqlite:~/.lakeops/telemetry.db}.
   */
  public static TelemetryRecorder open(String configuration, RecorderOptions options) {
    return start(TelemetryStoreFactory.open(configuration), options, Clock.systemUTC());
  }

  /** Records into {@code store}, which the recorder now owns and closes. */
  public static TelemetryRecorder start(
      TelemetryStore store, RecorderOptions options, Clock clock) {
    TelemetryRecorder recorder = new TelemetryRecorder(store, options, clock);
    recorder.flusher.start();
    return recorder;
  }

  /**
   * Queues {@code event} for writing; never blocks.
   *
   * @return false when the event was dropped because the queue was full or the recorder closed
   */
  public boolean record(TelemetryEvent event) {
    requireNonNull(event, "event is null");
    if (accepting && queue.offer(event)) {
      acceptedEvents.incrementAndGet();
      return true;
    }
    droppedEvents.incrementAndGet();
    return false;
  }

  /** Events dropped because the queue was full or the recorder was closed. */
  public long droppedEventCount() {
    return droppedEvents.get();
  }

  /** Events the store has accepted. */
  public long writtenEventCount() {
    return writtenEvents.get();
  }

  /** Events lost because the store failed to write them. */
  public long failedEventCount() {
    return failedEvents.get();
  }

  /** Events waiting in the queue. */
  public int queuedEventCount() {
    return queue.size();
  }

  /**
   * Waits until every event accepted before this call was written or counted as failed.
   *
   * @return false when {@code timeout} passed first
   */
  public boolean flush(Duration timeout) throws InterruptedException {
    long target = acceptedEvents.get();
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (progress) {
      while (writtenEvents.get() + failedEvents.get() < target) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(progress, remaining);
      }
    }
    return true;
  }

  /** Stops accepting events, writes every queued one, then closes the store. Safe to call twice. */
  @Override
  public void close() {
    synchronized (this) {
      if (!accepting) {
        return;
      }
      accepting = false;
    }
    boolean interrupted = false;
    while (flusher.isAlive()) {
      try {
        flusher.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    // A record() that passed the accepting check just before close() may land after the flusher
    // ended: write it here rather than lose it.
    List<TelemetryEvent> late = new ArrayList<>();
    queue.drainTo(late);
    if (!late.isEmpty()) {
      write(late);
    }
    store.close();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void runFlusher() {
    List<TelemetryEvent> batch = new ArrayList<>(options.maximumBatchSize());
    // Retention runs once at start, even if close() comes first, then every check interval.
    applyRetentionWhenDue();
    while (accepting || !queue.isEmpty()) {
      applyRetentionWhenDue();
      try {
        TelemetryEvent first =
            queue.poll(options.flushInterval().toMillis(), TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
      } catch (InterruptedException e) {
        // Only close() ends the flusher; it drains what is left either way.
        continue;
      }
      queue.drainTo(batch, options.maximumBatchSize() - 1);
      write(batch);
      batch.clear();
    }
  }

  private void write(List<TelemetryEvent> batch) {
    try {
      store.append(batch);
      writtenEvents.addAndGet(batch.size());
    } catch (RuntimeException e) {
      failedEvents.addAndGet(batch.size());
      LOG.log(System.Logger.Level.WARNING, "Lost " + batch.size() + " telemetry events", e);
    }
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  private void applyRetentionWhenDue() {
    if (retention.isEmpty() || clock.instant().isBefore(nextRetention)) {
      return;
    }
    nextRetention = clock.instant().plus(options.retentionCheckInterval());
    try {
      long deleted = retention.get().apply(store);
      LOG.log(System.Logger.Level.DEBUG, "Deleted {0} expired telemetry events", deleted);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "Telemetry retention failed; will retry", e);
    }
  }
}
