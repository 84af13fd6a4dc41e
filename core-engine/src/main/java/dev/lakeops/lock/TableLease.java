package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * A compaction lease as stored in a table's properties, which every engine can read.
 *
 * @param owner who holds the lease, e.g. {@code flink@host-1:4242/5f1c9a0e}
 * @param expiresAt when the lease ends unless its holder renews it
 */
public record TableLease(String owner, Instant expiresAt) {
  /** The table property holding the lease's owner. */
  public static final String OWNER_PROPERTY = "lakeops.lock.owner";

  /** The table property holding the lease's expiry, an ISO-8601 instant. */
  public static final String EXPIRES_AT_PROPERTY = "lakeops.lock.expires-at";

  public TableLease {
    requireNonNull(owner, "owner is null");
    requireNonNull(expiresAt, "expiresAt is null");
  }

  /**
   * Reads the lease from table properties. An owner without a readable expiry is a lease that never
   * expires: someone edited the properties by hand, and we do not guess.
   */
  public static Optional<TableLease> from(Map<String, String> properties) {
    String owner = properties.get(OWNER_PROPERTY);
    if (owner == null || owner.isBlank()) {
      return Optional.empty();
    }
    String expiry = properties.get(EXPIRES_AT_PROPERTY);
    if (expiry == null) {
      return Optional.of(new TableLease(owner, Instant.MAX));
    }
    try {
      return Optional.of(new TableLease(owner, Instant.parse(expiry)));
    } catch (DateTimeParseException e) {
      return Optional.of(new TableLease(owner, Instant.MAX));
    }
  }

  public boolean isExpiredAt(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
