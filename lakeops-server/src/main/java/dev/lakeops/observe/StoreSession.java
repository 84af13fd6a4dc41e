package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreConnections;
import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One JDBC connection to the shared store (SQLite or PostgreSQL, schema migrated on open) that
 * threads take turns on; a broken connection is replaced on the next call.
 */
public final class StoreSession implements AutoCloseable {
  private final StoreLocation location;
  private final ReentrantLock lock = new ReentrantLock();
  private Connection connection;
  private boolean closed;

  private StoreSession(StoreLocation location, Connection connection) {
    this.location = location;
    this.connection = connection;
  }

  /** Opens {@code configuration} ({@code sqlite:FILE} or {@code jdbc:postgresql://...}). */
  public static StoreSession open(String configuration) {
    StoreLocation location =
        StoreLocation.parse(requireNonNull(configuration, "configuration is null"));
    return new StoreSession(location, StoreConnections.openMigrated(location));
  }

  /** Where the store is, safe for logs. */
  public String describe() {
    return location.describe();
  }

  /** Runs {@code work} in one transaction. */
  public <T> T inTransaction(String action, SqlWork<T> work) {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException(
            "Cannot " + action + ": the store " + describe() + " is closed");
      }
      if (connection == null) {
        connection = StoreConnections.open(location);
      }
      T result = work.run(connection);
      connection.commit();
      return result;
    } catch (SQLException e) {
      discard(e);
      throw new IllegalStateException(
          "Cannot " + action + " in the store " + describe() + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      // closing a connection that failed: nothing left to release
    } finally {
      connection = null;
      lock.unlock();
    }
  }

  private void discard(SQLException failure) {
    try {
      connection.rollback();
      if (connection.isValid(2)) {
        return;
      }
      connection.close();
    } catch (SQLException closeFailure) {
      failure.addSuppressed(closeFailure);
    }
    connection = null;
  }

  /** Work on the connection, inside a transaction. */
  @FunctionalInterface
  public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }
}
