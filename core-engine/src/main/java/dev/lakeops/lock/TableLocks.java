package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.Table;

/**
 * Takes a table's compaction lock, a lease with an owner and an expiry. Where a run store is set
 * ({@link LockOptions#leaseStore()}: the command line's default store, {@code serve}'s, a shared
 * PostgreSQL), the lease is a row of that store keyed by the table's location, and taking, renewing
 * and releasing it never touch the table. Without a store it lives in the table properties {@value
 * TableLease#OWNER_PROPERTY} and {@value TableLease#EXPIRES_AT_PROPERTY}, which the CLI, the Flink
 * hook and the Spark and Trino procedures all read from the same catalog; then taking, renewing and
 * releasing are metadata-only commits: they add no snapshot, so they never fail a concurrent {@code
 * RewriteFiles} validation or a writer's append.
 */
public final class TableLocks {
  private static final String HOST = hostName();

  /** Lease commits that may lose to unrelated commits in a row before acquiring gives up. */
  private static final int MAX_LOST_COMMITS = 20;

  private final LockOptions options;

  public TableLocks(LockOptions options) {
    this.options = requireNonNull(options, "options is null");
  }

  public LockOptions options() {
    return options;
  }

  /** The key of {@code table}'s lease row in a run store: the table's location. */
  public static String storeKey(Table table) {
    return StoreLeaseKeeper.tableKey(requireNonNull(table, "table is null"));
  }

  /**
   * The start of the owner of every lease that the process {@code pid} on {@code host} takes with
   * {@code ownerLabel}: what a dead process's leases are found by.
   */
  public static String ownerPrefix(String ownerLabel, String host, long pid) {
    return ownerLabel + "@" + host + ":" + pid + "/";
  }

  /** The name of this machine, as lease owners name it. */
  public static String host() {
    return HOST;
  }

  /**
   * Takes the lock, waiting up to {@link LockOptions#maximumWait()} for another holder's lease to
   * end.
   *
   * @throws TableLockedException when another holder still has it after the wait
   */
  public HeldTableLock acquire(Table table) {
    requireNonNull(table, "table is null");
    LeaseKeeper keeper = keeperOf(table);
    try {
      return acquire(table, keeper);
    } catch (RuntimeException e) {
      keeper.close();
      throw e;
    }
  }

  private LeaseKeeper keeperOf(Table table) {
    if (options.leaseStore().isPresent()) {
      return StoreLeaseKeeper.open(table, options.leaseStore().get());
    }
    return new PropertyLeaseKeeper(new LeaseCommitter(table));
  }

  private HeldTableLock acquire(Table table, LeaseKeeper keeper) {
    String owner =
        ownerPrefix(options.ownerLabel(), HOST, ProcessHandle.current().pid())
            + UUID.randomUUID().toString().substring(0, 8);
    long startNanos = System.nanoTime();
    long waitNanos = options.maximumWait().toNanos();
    int lostCommits = 0;
    while (true) {
      Instant now = options.clock().instant();
      TableLease mine = new TableLease(owner, now.plus(options.leaseDuration()));
      Optional<TableLease> holder = keeper.take(mine, now);
      if (holder.isPresent() && holder.get().owner().equals(owner)) {
        return new HeldTableLock(keeper, options, holder.get());
      }
      if (holder.isEmpty() || holder.get().isExpiredAt(now)) {
        // the lease was free, and the take lost to an unrelated commit: try again
        lostCommits++;
        if (lostCommits >= MAX_LOST_COMMITS) {
          throw new IllegalStateException(
              "Cannot take the compaction lock of "
                  + table.name()
                  + ": the table changed during "
                  + MAX_LOST_COMMITS
                  + " lease commits in a row");
        }
        sleep(Duration.ofMillis(10L * lostCommits), table, holder.orElse(mine));
        continue;
      }
      long waitedNanos = System.nanoTime() - startNanos;
      if (waitedNanos >= waitNanos) {
        throw new TableLockedException(table.name(), holder.get(), options.maximumWait());
      }
      sleep(
          Duration.ofNanos(Math.min(options.pollInterval().toNanos(), waitNanos - waitedNanos)),
          table,
          holder.get());
    }
  }

  private static void sleep(Duration duration, Table table, TableLease holder) {
    try {
      Thread.sleep(Math.max(1, duration.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(
          "Interrupted while waiting for the compaction lock of "
              + table.name()
              + " held by "
              + holder.owner(),
          e);
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
