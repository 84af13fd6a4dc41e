package dev.lakeops.commit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How often a conflicting commit is re-validated and retried, and how long to wait in between. The
 * wait doubles after every conflict, from {@code initialBackoff} up to {@code maxBackoff}.
 *
 * @param maxAttempts commit attempts per batch, the first included
 * @param initialBackoff wait after the first conflict
 * @param maxBackoff longest wait
 */
public record CommitRetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
  public static final CommitRetryPolicy DEFAULT =
      new CommitRetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(2));

  public CommitRetryPolicy {
    requireNonNull(initialBackoff, "initialBackoff is null");
    requireNonNull(maxBackoff, "maxBackoff is null");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("Commit attempts must be at least 1, got " + maxAttempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "Commit backoff must satisfy 0 <= initial <= max, got "
              + initialBackoff
              + " and "
              + maxBackoff);
    }
  }

  /** The wait after {@code conflicts} conflicts (1 for the first). */
  public Duration backoff(int conflicts) {
    Duration wait = initialBackoff;
    for (int step = 1; step < conflicts && wait.compareTo(maxBackoff) < 0; step++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
  }
}
