package dev.lakeops.telemetry.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.sqlite.SQLiteConfig;

/**
 * Opens JDBC connections for a {@link StoreLocation}, each set up for its database, without
 * auto-commit. Public for the other users of the same store (the run ledger).
 */
public final class StoreConnections {
  /** How long SQLite waits for another process's write lock before failing. */
  static final int SQLITE_BUSY_TIMEOUT_MILLIS = 10_000;

  /** The pause between opens of a SQLite file another connection is opening. */
  private static final long BUSY_OPEN_RETRY_MILLIS = 20;

  private StoreConnections() {}

  /** A connection to the store whose schema is at the latest version (migrated if it was not). */
  public static Connection openMigrated(StoreLocation location) {
    Connection connection = open(location);
    try {
      SchemaMigrator.migrate(connection, location.kind());
      return connection;
    } catch (SQLException | RuntimeException e) {
      try {
        connection.close();
      } catch (SQLException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      if (e instanceof TelemetryStoreException storeException) {
        throw storeException;
      }
      throw new TelemetryStoreException(
          "Cannot migrate store " + location + ": " + e.getMessage(), e);
    }
  }

  /** A connection to the store, schema as it is. */
  public static Connection open(StoreLocation location) {
    try {
      Connection connection =
          switch (location.kind()) {
            case SQLITE -> openSqlite(location);
            case POSTGRESQL -> DriverManager.getConnection(location.jdbcUrl());
          };
      connection.setAutoCommit(false);
      return connection;
    } catch (SQLException | IOException e) {
      throw new TelemetryStoreException(
          "Cannot open telemetry store " + location + ": " + e.getMessage(), e);
    }
  }

  private static Connection openSqlite(StoreLocation location) throws SQLException, IOException {
    Path file = Path.of(location.jdbcUrl().substring(StoreLocation.SQLITE_JDBC_PREFIX.length()));
    if (file.getParent() != null) {
      Files.createDirectories(file.getParent());
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setBusyTimeout(SQLITE_BUSY_TIMEOUT_MILLIS);
    // Keep the default deferred transactions: the driver begins the next transaction right after
    // each commit, and an immediate one would hold the write lock between calls, locking out
    // every other process that shares the file.
    // Opening applies the journal mode, which SQLite answers with SQLITE_BUSY at once, without the
    // busy timeout, while another connection opens the same new file: open again until it is set.
    long deadline = System.nanoTime() + SQLITE_BUSY_TIMEOUT_MILLIS * 1_000_000L;
    while (true) {
      try {
        return config.createConnection(location.jdbcUrl());
      } catch (SQLException e) {
        if (!String.valueOf(e.getMessage()).contains("SQLITE_BUSY")
            || System.nanoTime() - deadline > 0) {
          throw e;
        }
        try {
          Thread.sleep(BUSY_OPEN_RETRY_MILLIS);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
