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

  StoreLocation location() {
    return location;
  }

  /** Runs {@code work} as one transaction; a failure names {@code action} and the store. */
  <T> T inTransaction(String action, SqlWork<T> work) {
    turns.lock();
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
      throw new RunLedgerException(
          "Cannot "
              + action
              + " in store "
              + location.describe()
              + ": "
              + LedgerWarnings.oneLine(e),
          e);
    } finally {
      turns.unlock();
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
