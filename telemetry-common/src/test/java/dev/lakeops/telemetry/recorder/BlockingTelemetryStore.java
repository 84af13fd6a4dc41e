package dev.lakeops.telemetry.recorder;

import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.store.TableMatch;
import dev.lakeops.telemetry.store.TableUsage;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.UsageQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A hand-written store whose first append blocks until released, to fill the recorder's queue; and
 * which fails the appends it is told to fail.
 */
final class BlockingTelemetryStore implements TelemetryStore {
  private final CountDownLatch firstAppendEntered = new CountDownLatch(1);
  private final CountDownLatch release;
  private final List<TelemetryEvent> appended = new ArrayList<>();
  private int appendsToFail;
  private boolean closed;

  private BlockingTelemetryStore(boolean blockFirstAppend, int appendsToFail) {
    this.release = new CountDownLatch(blockFirstAppend ? 1 : 0);
    this.appendsToFail = appendsToFail;
  }

  static BlockingTelemetryStore blockingFirstAppend() {
    return new BlockingTelemetryStore(true, 0);
  }

  static BlockingTelemetryStore failingFirstAppends(int count) {
    return new BlockingTelemetryStore(false, count);
  }

  void awaitFirstAppend() throws InterruptedException {
    if (!firstAppendEntered.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the flusher never called append");
    }
  }

  void release() {
    release.countDown();
  }

  synchronized List<TelemetryEvent> appended() {
    return List.copyOf(appended);
  }

  synchronized boolean closed() {
    return closed;
  }

  @Override
  public void append(List<TelemetryEvent> events) {
    firstAppendEntered.countDown();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    synchronized (this) {
      if (appendsToFail > 0) {
        appendsToFail--;
        throw new IllegalStateException("store unavailable");
      }
      appended.addAll(events);
    }
  }

  @Override
  public long countEvents() {
    throw new UnsupportedOperationException("not used by the recorder");
  }

  @Override
  public long deleteEventsOlderThan(Instant cutoff) {
    throw new UnsupportedOperationException("not used without retention");
  }

  @Override
  public TableUsage usage(TableName table, UsageQuery query) {
    throw new UnsupportedOperationException("not used by the recorder");
  }

  @Override
  public TableUsage usage(TableMatch table, UsageQuery query) {
    throw new UnsupportedOperationException("not used by the recorder");
  }

  @Override
  public List<TableName> tableNames(UsageQuery query) {
    throw new UnsupportedOperationException("not used by the recorder");
  }

  @Override
  public List<TableUsage> usage(UsageQuery query) {
    throw new UnsupportedOperationException("not used by the recorder");
  }

  @Override
  public synchronized void close() {
    closed = true;
  }
}
