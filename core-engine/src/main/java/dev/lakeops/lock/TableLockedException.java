package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/** Another compactor holds the table's lock, and waiting for it did not help. */
public final class TableLockedException extends RuntimeException {
  private final String table;
  private final TableLease holder;

  public TableLockedException(String table, TableLease holder, Duration waited) {
    super(message(table, holder, waited));
    this.table = requireNonNull(table, "table is null");
    this.holder = requireNonNull(holder, "holder is null");
  }

  public String table() {
    return table;
  }

  public TableLease holder() {
    return holder;
  }

  private static String message(String table, TableLease holder, Duration waited) {
    String expiry =
        holder.expiresAt().equals(Instant.MAX)
            ? "no readable expiry (remove table properties "
                + TableLease.OWNER_PROPERTY
                + " and "
                + TableLease.EXPIRES_AT_PROPERTY
                + " if no compaction runs)"
            : "a lease expiring at " + holder.expiresAt();
    return "Table "
        + table
        + " is being compacted by "
        + holder.owner()
        + " with "
        + expiry
        + "; gave up after waiting "
        + waited
        + " (the lock wait; raise it to queue instead)";
  }
}
