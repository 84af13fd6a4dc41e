package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * How to weigh recorded usage: events lose half their weight every {@code halfLife} before {@code
 * asOf}, and events older than {@code lookback} are ignored.
 *
 * @param asOf the instant usage is measured at, usually now
 * @param halfLife the age at which an event counts half
 * @param lookback the oldest age still read
 */
public record UsageQuery(Instant asOf, Duration halfLife, Duration lookback) {
  /** Half-life used when none is configured. */
  public static final Duration DEFAULT_HALF_LIFE = Duration.ofDays(7);

  /** Lookback as a multiple of the half-life when none is given: older events weigh under 0.1%. */
  public static final int DEFAULT_LOOKBACK_HALF_LIVES = 10;

  public UsageQuery {
    requireNonNull(asOf, "asOf is null");
    requirePositive(halfLife, "halfLife");
    requirePositive(lookback, "lookback");
  }

  /** Usage as of {@code asOf} with the given half-life and a lookback of ten half-lives. */
  public static UsageQuery asOf(Instant asOf, Duration halfLife) {
    requirePositive(halfLife, "halfLife");
    return new UsageQuery(asOf, halfLife, halfLife.multipliedBy(DEFAULT_LOOKBACK_HALF_LIVES));
  }

  /** The oldest instant still read. */
  public Instant oldest() {
    return asOf.minus(lookback);
  }

  /** The weight of an event that occurred at {@code occurredAt}: 1 now, 0.5 one half-life ago. */
  public double decay(Instant occurredAt) {
    long ageMillis = Duration.between(occurredAt, asOf).toMillis();
    if (ageMillis <= 0) {
      return 1.0;
    }
    return Math.pow(0.5, ageMillis / (double) halfLife.toMillis());
  }

  private static void requirePositive(Duration value, String name) {
    requireNonNull(value, name + " is null");
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
