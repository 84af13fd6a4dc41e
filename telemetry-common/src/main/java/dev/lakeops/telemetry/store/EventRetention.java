package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Deletes events older than a maximum age. Only events strictly older than {@code now - maximumAge}
 * go; an event exactly at the cutoff stays.
 *
 * @param maximumAge how long events are kept
 * @param clock the clock that says what now is
 */
public record EventRetention(Duration maximumAge, Clock clock) {
  public EventRetention {
    requireNonNull(maximumAge, "maximumAge is null");
    requireNonNull(clock, "clock is null");
    if (maximumAge.isNegative() || maximumAge.isZero()) {
      throw new IllegalArgumentException(
          "Telemetry retention must be positive, was "
              + maximumAge
              + ": events would all be deleted");
    }
  }

  public static EventRetention keep(Duration maximumAge) {
    return new EventRetention(maximumAge, Clock.systemUTC());
  }

  /** The instant before which events are deleted. */
  public Instant cutoff() {
    return clock.instant().minus(maximumAge);
  }

  /** Deletes the expired events of {@code store} and returns how many went. */
  public long apply(TelemetryStore store) {
    return store.deleteEventsOlderThan(cutoff());
  }
}
