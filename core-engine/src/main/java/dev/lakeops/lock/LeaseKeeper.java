package dev.lakeops.lock;

import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.Transaction;

/**
 * Where a table's lease is kept: a row of the run store ({@link StoreLeaseKeeper}) or, when no
 * store is set, the table's own properties ({@link PropertyLeaseKeeper}). {@link TableLocks} and
 * {@link HeldTableLock} decide when to take, renew and release; a keeper only does it.
 */
interface LeaseKeeper extends AutoCloseable {
  /** What a renewal came to. */
  enum Renewal {
    /** The lease is extended. */
    RENEWED,
    /** Another holder has the lease now. */
    LOST,
    /** The table changed under the renewal; read again and retry. */
    CHANGED
  }

  /** What a release came to. */
  enum Release {
    /** The lease is gone. */
    RELEASED,
    /** The caller held no lease any more. */
    NOT_HELD,
    /** The table changed under the release; read again and retry. */
    CHANGED
  }

  String tableName();

  /** The lease that stands now, expired or not; empty when the table is free. */
  Optional<TableLease> current();

  /**
   * Takes {@code wanted} when nobody holds the table or the holder's lease ended at or before
   * {@code now}, and returns who holds it after the attempt (read back, never assumed).
   */
  Optional<TableLease> take(TableLease wanted, Instant now);

  /** Extends the lease of {@code extended}'s owner to its expiry. */
  Renewal renew(TableLease extended);

  /** Removes {@code owner}'s lease; another holder's lease stays. */
  Release release(String owner);

  /** Whether the lease lives in the table itself, so that a table commit can carry its release. */
  default boolean keepsLeaseInTable() {
    return false;
  }

  /**
   * Stages the removal of {@code owner}'s lease in {@code transaction}, when the lease lives in the
   * table and {@code owner} holds it there.
   *
   * @return whether the release was staged
   */
  default boolean stageRelease(Transaction transaction, String owner) {
    return false;
  }

  @Override
  void close();
}
