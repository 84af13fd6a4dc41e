package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * Takes a table's compaction lock: a lease in the table properties {@value
 * TableLease#OWNER_PROPERTY} and {@value TableLease#EXPIRES_AT_PROPERTY}, which the CLI, the Flink
 * hook and the Spark and Trino procedures all read from the same catalog. Taking, renewing and
 * releasing a lease are metadata-only commits: they add no snapshot, so they never fail a
 * concurrent {@code RewriteFiles} validation or a writer's append.
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

  /**
   * Takes the lock, waiting up to {@link LockOptions#maximumWait()} for another holder's lease to
   * end.
   *
   * @throws TableLockedException when another holder still has it after the wait
   */
  public HeldTableLock acquire(Table table) {
    requireNonNull(table, "table is null");
    LeaseCommitter committer = new LeaseCommitter(table);
    String owner =
        options.ownerLabel()
            + "@"
            + HOST
            + ":"
            + ProcessHandle.current().pid()
            + "/"
            + UUID.randomUUID().toString().substring(0, 8);
    long startNanos = System.nanoTime();
    long waitNanos = options.maximumWait().toNanos();
    int lostCommits = 0;
    while (true) {
      TableMetadata base = committer.refresh();
      Optional<TableLease> current = TableLease.from(base.properties());
      Instant now = options.clock().instant();
      if (current.isEmpty() || current.get().isExpiredAt(now)) {
        TableLease mine = new TableLease(owner, now.plus(options.leaseDuration()));
        committer.compareAndSet(base, Optional.of(mine));
        // Read back rather than trust the commit: a catalog may accept a property update without
        // checking the base (the REST protocol has no requirement for properties).
        Optional<TableLease> after = committer.currentLease();
        if (after.isPresent() && after.get().owner().equals(owner)) {
          return new HeldTableLock(committer, options, after.get());
        }
        lostCommits++;
        if (lostCommits >= MAX_LOST_COMMITS) {
          throw new IllegalStateException(
              "Cannot take the compaction lock of "
                  + table.name()
                  + ": the table changed during "
                  + MAX_LOST_COMMITS
                  + " lease commits in a row");
        }
        sleep(Duration.ofMillis(10L * lostCommits), table, after.orElse(mine));
        continue;
      }
      long waitedNanos = System.nanoTime() - startNanos;
      if (waitedNanos >= waitNanos) {
        throw new TableLockedException(table.name(), current.get(), options.maximumWait());
      }
      sleep(
          Duration.ofNanos(Math.min(options.pollInterval().toNanos(), waitNanos - waitedNanos)),
          table,
          current.get());
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
