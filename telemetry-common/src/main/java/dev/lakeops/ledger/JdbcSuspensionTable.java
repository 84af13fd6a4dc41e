package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Failures in a row of each operation on each table ({@code lakeops_suspension}), kept in the store
 * so that every {@code serve} sharing it (and {@code lakeops status} and {@code resume}) sees the
 * same count: a failure adds one, a success removes the row, enough failures suspend the operation
 * until the table changes or someone resumes it.
 */
public final class JdbcSuspensionTable implements AutoCloseable {
  private static final String COLUMNS =
      "catalog_name, table_name, operation, failures, last_error, suspended_at_millis,"
          + " snapshot_id, policy_fingerprint";

  private final TurnTakingConnection store;

  private JdbcSuspensionTable(TurnTakingConnection store) {
    this.store = requireNonNull(store, "store is null");
  }

  /** Connects to {@code location}, migrating its schema when it is behind. */
  public static JdbcSuspensionTable open(StoreLocation location) {
    return new JdbcSuspensionTable(TurnTakingConnection.open(location));
  }

  /**
   * Counts one more failure of {@code operation} on {@code tableName}.
   *
   * @return the failures in a row now
   */
  public int recordFailure(String catalogName, String tableName, String operation, String error) {
    return store.inTransaction(
        "count a failure of " + operation + " on " + tableName,
        connection -> {
          try (PreparedStatement upsert =
              connection.prepareStatement(
                  "INSERT INTO lakeops_suspension (catalog_name, table_name, operation, failures,"
                      + " last_error) VALUES (?, ?, ?, 1, ?)"
                      + " ON CONFLICT (catalog_name, table_name, operation) DO UPDATE SET"
                      + " failures = lakeops_suspension.failures + 1,"
                      + " last_error = excluded.last_error")) {
            upsert.setString(1, catalogName);
            upsert.setString(2, tableName);
            upsert.setString(3, operation);
            upsert.setString(4, error);
            upsert.executeUpdate();
          }
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT failures FROM lakeops_suspension"
                      + " WHERE catalog_name = ? AND table_name = ? AND operation = ?")) {
            select.setString(1, catalogName);
            select.setString(2, tableName);
            select.setString(3, operation);
            try (ResultSet row = select.executeQuery()) {
              row.next();
              return row.getInt(1);
            }
          }
        });
  }

  /** Suspends {@code operation} on {@code tableName} as of the table's snapshot and policy. */
  public void suspend(
      String catalogName,
      String tableName,
      String operation,
      Instant at,
      OptionalLong snapshotId,
      String policyFingerprint) {
    store.inTransaction(
        "suspend " + operation + " on " + tableName,
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE lakeops_suspension SET suspended_at_millis = ?, snapshot_id = ?,"
                      + " policy_fingerprint = ?"
                      + " WHERE catalog_name = ? AND table_name = ? AND operation = ?")) {
            update.setLong(1, at.toEpochMilli());
            if (snapshotId.isPresent()) {
              update.setLong(2, snapshotId.getAsLong());
            } else {
              update.setNull(2, Types.BIGINT);
            }
            update.setString(3, policyFingerprint);
            update.setString(4, catalogName);
            update.setString(5, tableName);
            update.setString(6, operation);
            update.executeUpdate();
          }
          return null;
        });
  }

  /**
   * Forgets the failures of {@code operation} on {@code tableName} (after a success, or when a
   * suspension ends).
   */
  public void clear(String catalogName, String tableName, String operation) {
    store.inTransaction(
        "clear the failures of " + operation + " on " + tableName,
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "DELETE FROM lakeops_suspension"
                      + " WHERE catalog_name = ? AND table_name = ? AND operation = ?")) {
            delete.setString(1, catalogName);
            delete.setString(2, tableName);
            delete.setString(3, operation);
            delete.executeUpdate();
          }
          return null;
        });
  }

  /**
   * Forgets the failures of every operation on {@code tableName}: {@code lakeops resume}.
   *
   * @return the rows it removed, as they were
   */
  public List<SuspensionRow> clearTable(String catalogName, String tableName) {
    return store.inTransaction(
        "resume " + tableName,
        connection -> {
          List<SuspensionRow> rows = select(connection, catalogName, Optional.of(tableName));
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "DELETE FROM lakeops_suspension WHERE catalog_name = ? AND table_name = ?")) {
            delete.setString(1, catalogName);
            delete.setString(2, tableName);
            delete.executeUpdate();
          }
          return rows;
        });
  }

  /** Every row of {@code catalogName}: operations failing in a row, suspended or not yet. */
  public List<SuspensionRow> list(String catalogName) {
    return store.inTransaction(
        "read the suspended operations of " + catalogName,
        connection -> select(connection, catalogName, Optional.empty()));
  }

  private static List<SuspensionRow> select(
      java.sql.Connection connection, String catalogName, Optional<String> tableName)
      throws java.sql.SQLException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT "
                + COLUMNS
                + " FROM lakeops_suspension WHERE catalog_name = ?"
                + (tableName.isPresent() ? " AND table_name = ?" : "")
                + " ORDER BY table_name, operation")) {
      select.setString(1, catalogName);
      if (tableName.isPresent()) {
        select.setString(2, tableName.get());
      }
      List<SuspensionRow> rows = new ArrayList<>();
      try (ResultSet row = select.executeQuery()) {
        while (row.next()) {
          long suspendedAt = row.getLong(6);
          boolean suspended = !row.wasNull();
          long snapshot = row.getLong(7);
          boolean hasSnapshot = !row.wasNull();
          rows.add(
              new SuspensionRow(
                  row.getString(1),
                  row.getString(2),
                  row.getString(3),
                  row.getInt(4),
                  row.getString(5),
                  suspended ? Optional.of(Instant.ofEpochMilli(suspendedAt)) : Optional.empty(),
                  hasSnapshot ? OptionalLong.of(snapshot) : OptionalLong.empty(),
                  Optional.ofNullable(row.getString(8))));
        }
      }
      return rows;
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
