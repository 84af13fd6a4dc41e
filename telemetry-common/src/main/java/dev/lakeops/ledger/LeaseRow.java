package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * A table lease as one row of the store's lease table holds it.
 *
 * @param owner who holds the lease, e.g. {@code cli@host-1:4242/5f1c9a0e}
 * @param expiresAt when the lease ends unless its holder renews it
 */
public record LeaseRow(String owner, Instant expiresAt) {
  public LeaseRow {
    requireNonNull(owner, "owner is null");
    requireNonNull(expiresAt, "expiresAt is null");
  }
}
