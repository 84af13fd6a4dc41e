package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreLocation;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * How a compactor takes a table's lock.
 *
 * @param ownerLabel names the kind of holder in the lock's owner, e.g. {@code cli}, {@code flink}
 * @param leaseDuration how long a lease lasts without renewal; a crashed holder's lock frees itself
 *     after at most this long. The holder renews every third of it.
 * @param maximumWait how long {@link TableLocks#acquire} waits for another holder before refusing;
 *     zero refuses at once
 * @param pollInterval how often a waiting compactor looks at the lock again
 * @param clock the time source of leases
 * @param leaseStore the run store that keeps the lease as a row (SQLite or PostgreSQL); empty keeps
 *     it in the table's properties, as hosts without a store do
 */
public record LockOptions(
    String ownerLabel,
    Duration leaseDuration,
    Duration maximumWait,
    Duration pollInterval,
    Clock clock,
    Optional<StoreLocation> leaseStore) {
  /** The label of holders that set none. */
  public static final String OWNER_LABEL_DEFAULT = "lakeops";

  /** A lease lasts five minutes: the longest a crashed holder blocks other compactors. */
  public static final Duration LEASE_DURATION_DEFAULT = Duration.ofMinutes(5);

  /** By default a second compactor is refused at once rather than queued. */
  public static final Duration MAXIMUM_WAIT_DEFAULT = Duration.ZERO;

  /** A waiting compactor re-reads the table's properties once a second. */
  public static final Duration POLL_INTERVAL_DEFAULT = Duration.ofSeconds(1);

  public LockOptions {
    requireNonNull(ownerLabel, "ownerLabel is null");
    if (ownerLabel.isBlank()) {
      throw new IllegalArgumentException("ownerLabel is blank");
    }
    requirePositive(leaseDuration, "leaseDuration");
    requireNonNull(maximumWait, "maximumWait is null");
    if (maximumWait.isNegative()) {
      throw new IllegalArgumentException("Lock wait must not be negative: " + maximumWait);
    }
    requirePositive(pollInterval, "pollInterval");
    requireNonNull(clock, "clock is null");
    requireNonNull(leaseStore, "leaseStore is null");
  }

  public static LockOptions defaults() {
    return new LockOptions(
        OWNER_LABEL_DEFAULT,
        LEASE_DURATION_DEFAULT,
        MAXIMUM_WAIT_DEFAULT,
        POLL_INTERVAL_DEFAULT,
        Clock.systemUTC(),
        Optional.empty());
  }

  public LockOptions withOwnerLabel(String value) {
    return new LockOptions(value, leaseDuration, maximumWait, pollInterval, clock, leaseStore);
  }

  public LockOptions withLeaseDuration(Duration value) {
    return new LockOptions(ownerLabel, value, maximumWait, pollInterval, clock, leaseStore);
  }

  public LockOptions withMaximumWait(Duration value) {
    return new LockOptions(ownerLabel, leaseDuration, value, pollInterval, clock, leaseStore);
  }

  public LockOptions withPollInterval(Duration value) {
    return new LockOptions(ownerLabel, leaseDuration, maximumWait, value, clock, leaseStore);
  }

  public LockOptions withClock(Clock value) {
    return new LockOptions(ownerLabel, leaseDuration, maximumWait, pollInterval, value, leaseStore);
  }

  /**
   * These options with the lease kept as a row of {@code store}, or in the table's properties when
   * empty.
   */
  public LockOptions withLeaseStore(Optional<StoreLocation> store) {
    return new LockOptions(ownerLabel, leaseDuration, maximumWait, pollInterval, clock, store);
  }

  /** How often a holder renews its lease. */
  public Duration renewInterval() {
    return leaseDuration.dividedBy(3);
  }

  private static void requirePositive(Duration value, String name) {
    requireNonNull(value, name + " is null");
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
  }
}
