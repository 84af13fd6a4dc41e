package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the test moves by hand; counts how often it was read, so a test can wait for a reader.
 */
public final class SettableClock extends Clock {
  private final AtomicReference<Instant> now;
  private final AtomicInteger reads = new AtomicInteger();

  public SettableClock(Instant start) {
    this.now = new AtomicReference<>(requireNonNull(start, "start is null"));
  }

  public void advance(Duration duration) {
    now.updateAndGet(instant -> instant.plus(duration));
  }

  /** How many times {@link #instant()} was called so far. */
  public int reads() {
    return reads.get();
  }

  @Override
  public Instant instant() {
    reads.incrementAndGet();
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a SettableClock stays in UTC");
  }
}
