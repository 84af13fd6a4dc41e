package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreConnections;
import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One JDBC connection to a store (schema migrated) on which callers take turns, each call one
 * transaction: committed when it returns, rolled back when it throws.
 */
final class TurnTakingConnection implements AutoCloseable {
  /** Attempts of a transaction SQLite refuses as busy, about 5 seconds of pauses in all. */
  static final int BUSY_ATTEMPTS = 20;

  private static final long BUSY_PAUSE_MILLIS = 25;

  private final StoreLocation location;
  private final Connection connection;
  private final ReentrantLock turns = new ReentrantLock();

  private TurnTakingConnection(StoreLocation location, Connection connection) {
    this.location = requireNonNull(location, "location is null");
    this.connection = requireNonNull(connection, "connection is null");
  }

  static TurnTakingConnection open(StoreLocation location) {
    requireNonNull(location, "location is null");
    return new TurnTakingConnection(location, StoreConnections.openMigrated(location));
  }

  /** Takes turns on {@code connection}, already open to {@code location}; closing closes it. */
  static TurnTakingConnection of(StoreLocation location, Connection connection) {
    return new TurnTakingConnection(location, connection);
  }

  StoreLocation location() {
    return location;
  }

  /**
   * Runs {@code work} as one transaction; a failure names {@code action} and the store. A
   * transaction that SQLite refuses as busy is rolled back and run again, up to {@link
   * #BUSY_ATTEMPTS} times: in WAL mode a transaction that read before another process wrote cannot
   * then write, and SQLite says so at once, without waiting out the busy timeout.
   */
  <T> T inTransaction(String action, SqlWork<T> work) {
    turns.lock();
    try {
      for (int attempt = 1; ; attempt++) {
        try {
          T result = work.run(connection);
          connection.commit();
          return result;
        } catch (SQLException e) {
          try {
            connection.rollback();
          } catch (SQLException rollbackFailure) {
            e.addSuppressed(rollbackFailure);
          }
          if (attempt >= BUSY_ATTEMPTS || !busy(e) || !pausedBeforeRetry(attempt)) {
            throw new RunLedgerException(
                "Cannot "
                    + action
                    + " in store "
                    + location.describe()
                    + ": "
                    + LedgerWarnings.oneLine(e),
                e);
          }
        }
      }
    } finally {
      turns.unlock();
    }
  }

  private static boolean busy(SQLException e) {
    return String.valueOf(e.getMessage()).contains("SQLITE_BUSY");
  }

  /** Waits a little longer after each busy attempt; false when interrupted. */
  private static boolean pausedBeforeRetry(int attempt) {
    try {
      Thread.sleep(BUSY_PAUSE_MILLIS * attempt);
      return true;
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    turns.lock();
    try {
      connection.close();
    } catch (SQLException e) {
      LedgerWarnings.warn("cannot close store " + location.describe() + ": " + e.getMessage());
    } finally {
      turns.unlock();
    }
  }

  /** Work on the connection within one transaction. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }
}
