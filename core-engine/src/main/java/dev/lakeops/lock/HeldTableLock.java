package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.iceberg.Transaction;

/**
 * A lease this process holds on a table. A daemon thread renews it every third of the lease
 * duration while the compaction runs; {@link #close} stops renewing and removes it. Closing twice
 * is harmless. If the lease was lost (renewal failed for a whole lease, and another compactor took
 * it), {@link #close} leaves the other holder's lease alone.
 *
 * <p>Kept in the run store, a renewal updates the lease's row and never touches the table. Kept in
 * the table's properties, a renewal never conflicts with the holder's own compaction commits: those
 * run through {@link #withoutRenewal}, which the renewal waits for; a renewal that loses its
 * compare-and-set to another writer's commit (a streaming sink's append) re-reads the table and
 * tries again at once, quietly.
 */
public final class HeldTableLock implements AutoCloseable, RenewalGuard {
  private static final System.Logger LOG = System.getLogger(HeldTableLock.class.getName());
  private static final int RELEASE_ATTEMPTS = 5;

  /** Compare-and-set attempts of one renewal before it waits for the next renewal interval. */
  static final int RENEW_ATTEMPTS = 5;

  private final LeaseKeeper keeper;
  private final LockOptions options;
  private final String owner;
  private final ScheduledExecutorService renewal;
  private volatile Instant expiresAt;
  private volatile boolean lost;
  private volatile boolean released;
  private boolean closed;
  private final ReentrantLock commits = new ReentrantLock();

  HeldTableLock(LeaseKeeper keeper, LockOptions options, TableLease lease) {
    this.keeper = requireNonNull(keeper, "keeper is null");
    this.options = requireNonNull(options, "options is null");
    this.owner = lease.owner();
    this.expiresAt = lease.expiresAt();
    this.renewal =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-lock-renewal-" + keeper.tableName());
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
    commits.lock();
    try {
      if (released) {
        return;
      }
      for (int attempt = 1; attempt <= RENEW_ATTEMPTS; attempt++) {
        Instant next = options.clock().instant().plus(options.leaseDuration());
        LeaseKeeper.Renewal outcome = keeper.renew(new TableLease(owner, next));
        if (outcome == LeaseKeeper.Renewal.LOST) {
          lost = true;
          LOG.log(
              Level.WARNING,
              "Lost the compaction lock of "
                  + keeper.tableName()
                  + " to "
                  + keeper.current().map(TableLease::owner).orElse("nobody"));
          renewal.shutdown();
          return;
        }
        if (outcome == LeaseKeeper.Renewal.RENEWED) {
          expiresAt = next;
          return;
        }
        // another writer committed since base was read: read again
      }
      LOG.log(
          Level.INFO,
          "Cannot renew the compaction lock of "
              + keeper.tableName()
              + ": the table"
              + " changed during "
              + RENEW_ATTEMPTS
              + " attempts; trying again in "
              + options.renewInterval()
              + " (the lease expires at "
              + expiresAt
              + ")");
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Cannot renew the compaction lock of "
              + keeper.tableName()
              + ": "
              + e
              + "; trying again in "
              + options.renewInterval()
              + " (the lease expires at "
              + expiresAt
              + ")");
    } finally {
      commits.unlock();
    }
  }

  /**
   * Runs {@code commit}, one of the holder's own commits, while no renewal commits: the two are
   * serialized, so neither makes the other fail its compare-and-set.
   */
  @Override
  public <T> T withoutRenewal(Supplier<T> commit) {
    commits.lock();
    try {
      return commit.get();
    } finally {
      commits.unlock();
    }
  }

  @Override
  public boolean releasesInLastCommit() {
    return keeper.keepsLeaseInTable();
  }

  @Override
  public void commitReleasing(Transaction transaction) {
    commits.lock();
    try {
      boolean staged = !lost && keeper.stageRelease(transaction, owner);
      transaction.commitTransaction();
      if (staged) {
        released = true;
        renewal.shutdown();
      }
    } finally {
      commits.unlock();
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    // no interrupt: a renewal in flight finishes its commit (interrupting Hadoop's file system mid
    // write logs a stack trace and leaves the commit's outcome unknown); later ones are cancelled
    renewal.shutdown();
    try {
      renewal.awaitTermination(options.leaseDuration().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (released) {
      // the run's last commit carried the release
      keeper.close();
      return;
    }
    try {
      for (int attempt = 0; attempt < RELEASE_ATTEMPTS; attempt++) {
        if (keeper.release(owner) != LeaseKeeper.Release.CHANGED) {
          return;
        }
      }
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Cannot release the compaction lock of "
              + keeper.tableName()
              + "; it expires at "
              + expiresAt,
          e);
      return;
    } finally {
      keeper.close();
    }
    LOG.log(
        Level.WARNING,
        "Cannot release the compaction lock of "
            + keeper.tableName()
            + " after "
            + RELEASE_ATTEMPTS
            + " attempts; it expires at "
            + expiresAt);
  }
}
