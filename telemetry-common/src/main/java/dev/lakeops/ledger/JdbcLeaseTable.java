package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreConnections;
import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Optional;

/**
 * Table leases as rows of {@code lakeops_table_lease} in a SQLite or PostgreSQL store (the store of
 * the run ledger): one row per table key with its owner and expiry. Taking a lease is one atomic
 * statement, an insert that replaces the row only when its lease has expired ({@code INSERT ... ON
 * CONFLICT DO UPDATE ... WHERE expired}, which both databases run as one step), so of two takers
 * that both saw the lease free only one gets it. Renewing and releasing change the row only while
 * the caller still owns it. One JDBC connection, calls take turns on it; a transaction SQLite
 * refuses as busy is run again.
 */
public final class JdbcLeaseTable implements AutoCloseable {
  private static final String CREATE =
      "CREATE TABLE IF NOT EXISTS lakeops_table_lease (table_key VARCHAR(2048) PRIMARY KEY,"
          + " owner VARCHAR(512) NOT NULL, expires_at_millis BIGINT NOT NULL)";
  private static final String TAKE =
      "INSERT INTO lakeops_table_lease (table_key, owner, expires_at_millis) VALUES (?, ?, ?)"
          + " ON CONFLICT (table_key) DO UPDATE SET owner = excluded.owner,"
          + " expires_at_millis = excluded.expires_at_millis"
          + " WHERE lakeops_table_lease.expires_at_millis <= ?";
  private static final String RENEW =
      "UPDATE lakeops_table_lease SET expires_at_millis = ? WHERE table_key = ? AND owner = ?";
  private static final String RELEASE =
      "DELETE FROM lakeops_table_lease WHERE table_key = ? AND owner = ?";
  private static final String SELECT =
      "SELECT owner, expires_at_millis FROM lakeops_table_lease WHERE table_key = ?";

  private final TurnTakingConnection turns;

  private JdbcLeaseTable(TurnTakingConnection turns) {
    this.turns = requireNonNull(turns, "turns is null");
  }

  /** Connects to {@code location} and creates the lease table when it is missing. */
  public static JdbcLeaseTable open(StoreLocation location) {
    requireNonNull(location, "location is null");
    Connection connection = StoreConnections.open(location);
    try {
      createTable(connection);
      return new JdbcLeaseTable(TurnTakingConnection.of(location, connection));
    } catch (SQLException e) {
      try {
        connection.close();
      } catch (SQLException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw new RunLedgerException(
          "Cannot create the table lease table in store "
              + location.describe()
              + ": "
              + LedgerWarnings.oneLine(e),
          e);
    }
  }

  private static void createTable(Connection connection) throws SQLException {
    try {
      try (Statement statement = connection.createStatement()) {
        statement.execute(CREATE);
      }
      connection.commit();
    } catch (SQLException firstFailure) {
      // two PostgreSQL sessions creating the table at once: one of them fails; the table is there
      connection.rollback();
      try (Statement statement = connection.createStatement()) {
        statement.execute(CREATE);
      }
      connection.commit();
    }
  }

  /**
   * Takes the lease of {@code tableKey} for {@code owner} until {@code expiresAt} when nobody holds
   * it or its lease ended at or before {@code now}.
   *
   * @return whether {@code owner} holds the lease now
   */
  public boolean take(String tableKey, String owner, Instant expiresAt, Instant now) {
    return turns.inTransaction(
        "take the lease of " + tableKey,
        connection -> {
          try (PreparedStatement take = connection.prepareStatement(TAKE)) {
            take.setString(1, tableKey);
            take.setString(2, owner);
            take.setLong(3, expiresAt.toEpochMilli());
            take.setLong(4, now.toEpochMilli());
            return take.executeUpdate() == 1;
          }
        });
  }

  /**
   * Moves the expiry of {@code owner}'s lease of {@code tableKey} to {@code expiresAt}.
   *
   * @return false when {@code owner} no longer holds it
   */
  public boolean renew(String tableKey, String owner, Instant expiresAt) {
    return turns.inTransaction(
        "renew the lease of " + tableKey,
        connection -> {
          try (PreparedStatement renew = connection.prepareStatement(RENEW)) {
            renew.setLong(1, expiresAt.toEpochMilli());
            renew.setString(2, tableKey);
            renew.setString(3, owner);
            return renew.executeUpdate() == 1;
          }
        });
  }

  /** Removes {@code owner}'s lease of {@code tableKey}; another holder's lease stays. */
  public boolean release(String tableKey, String owner) {
    return turns.inTransaction(
        "release the lease of " + tableKey,
        connection -> {
          try (PreparedStatement release = connection.prepareStatement(RELEASE)) {
            release.setString(1, tableKey);
            release.setString(2, owner);
            return release.executeUpdate() == 1;
          }
        });
  }

  /**
   * Removes every lease whose owner starts with {@code ownerPrefix}: the leases of a process known
   * to be dead, so that the tables it held are free before their leases run out.
   *
   * @return how many leases it removed
   */
  public int releaseAllOf(String ownerPrefix) {
    return turns.inTransaction(
        "release the leases of " + ownerPrefix,
        connection -> {
          java.util.List<String> owners = new java.util.ArrayList<>();
          try (PreparedStatement select =
                  connection.prepareStatement("SELECT DISTINCT owner FROM lakeops_table_lease");
              ResultSet row = select.executeQuery()) {
            while (row.next()) {
              if (row.getString(1).startsWith(ownerPrefix)) {
                owners.add(row.getString(1));
              }
            }
          }
          int removed = 0;
          try (PreparedStatement delete =
              connection.prepareStatement("DELETE FROM lakeops_table_lease WHERE owner = ?")) {
            for (String owner : owners) {
              delete.setString(1, owner);
              removed += delete.executeUpdate();
            }
          }
          return removed;
        });
  }

  /** The lease of {@code tableKey}, expired or not; empty when nobody took it. */
  public Optional<LeaseRow> holder(String tableKey) {
    return turns.inTransaction(
        "read the lease of " + tableKey,
        connection -> {
          try (PreparedStatement select = connection.prepareStatement(SELECT)) {
            select.setString(1, tableKey);
            try (ResultSet row = select.executeQuery()) {
              if (!row.next()) {
                return Optional.empty();
              }
              return Optional.of(
                  new LeaseRow(row.getString(1), Instant.ofEpochMilli(row.getLong(2))));
            }
          }
        });
  }

  /** Where the leases live, safe for messages (no password). */
  public String describe() {
    return turns.location().describe();
  }

  @Override
  public void close() {
    turns.close();
  }
}
