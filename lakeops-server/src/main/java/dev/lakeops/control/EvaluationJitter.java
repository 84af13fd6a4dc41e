package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Spreads the next evaluations of tables over time: each delay is shortened by a random share of up
 * to {@link #SHARE}, so that tables looked at together at start do not all come due together again
 * (no thundering herd), and no table is looked at later than its policy says.
 */
final class EvaluationJitter {
  /** The largest share of a delay taken off. */
  static final double SHARE = 0.2;

  private final RandomGenerator random;

  EvaluationJitter(RandomGenerator random) {
    this.random = requireNonNull(random, "random is null");
  }

  /** {@code delay} less a random share of it, from 0 up to {@link #SHARE}. */
  Duration spread(Duration delay) {
    requireNonNull(delay, "delay is null");
    long nanos = delay.toNanos();
    return Duration.ofNanos(nanos - (long) (nanos * SHARE * random.nextDouble()));
  }
}
