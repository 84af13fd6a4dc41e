package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.TableMetadata;

/**
 * A lease this process holds on a table. A daemon thread renews it every third of the lease
 * duration while the compaction runs; {@link #close} stops renewing and removes it. Closing twice is
 * harmless. If the lease was lost (renewal failed for a whole lease, and another compactor took
 * it), {@link #close} leaves the other holder's lease alone.
 */
public final class HeldTableLock implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(HeldTableLock.class.getName());
  private static final int RELEASE_ATTEMPTS = 5;

  private final LeaseCommitter committer;
  private final LockOptions options;
  private final String owner;
  private final ScheduledExecutorService renewal;
  private volatile Instant expiresAt;
  private volatile boolean lost;
  private boolean closed;

  HeldTableLock(LeaseCommitter committer, LockOptions options, TableLease lease) {
    this.committer = requireNonNull(committer, "committer is null");
    this.options = requireNonNull(options, "options is null");
    this.owner = lease.owner();
    this.expiresAt = lease.expiresAt();
    this.renewal =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-lock-renewal-" + committer.tableName());
              thread.setDaemon(true);
              return thread;
            });
    long periodMillis = Math.max(1, options.renewInterval().toMillis());
    renewal.scheduleWithFixedDelay(this::renew, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  public String owner() {
    return owner;
  }

  /** When the lease ends unless renewed again. */
  public Instant expiresAt() {
    return expiresAt;
  }

  /** Whether another compactor took the lease after it expired without renewal. */
  public boolean lost() {
    return lost;
  }

  /** Extends the lease now; the renewal thread calls this every third of the lease. */
  void renew() {
    try {
      TableMetadata base = committer.refresh();
      Optional<TableLease> current = TableLease.from(base.properties());
      if (current.isEmpty() || !current.get().owner().equals(owner)) {
        lost = true;
        LOG.log(Level.WARNING, "Lost the compaction lock of " + committer.tableName() + " to "
            + current.map(TableLease::owner).orElse("nobody"));
        renewal.shutdown();
        return;
      }
      Instant next = options.clock().instant().plus(options.leaseDuration());
      if (committer.compareAndSet(base, Optional.of(new TableLease(owner, next)))) {
        expiresAt = next;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Cannot renew the compaction lock of " + committer.tableName(), e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    renewal.shutdownNow();
    try {
      renewal.awaitTermination(options.leaseDuration().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
      try {
        TableMetadata base = committer.refresh();
        Optional<TableLease> current = TableLease.from(base.properties());
        if (current.isEmpty() || !current.get().owner().equals(owner)) {
          return;
        }
        if (committer.compareAndSet(base, Optional.empty())) {
          return;
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Cannot release the compaction lock of " + committer.tableName()
            + "; it expires at " + expiresAt, e);
        return;
      }
    }
    LOG.log(Level.WARNING, "Cannot release the compaction lock of " + committer.tableName()
        + " after " + RELEASE_ATTEMPTS + " attempts; it expires at " + expiresAt);
  }
}
