package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreLocation;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code serve} processes sharing a store ({@code lakeops_member}) and which of them owns each
 * table ({@code lakeops_table_owner}). A member renews its heartbeat; a table changes owner only
 * through a compare-and-set on its row (taken when free, or from the owner the taker read), so of
 * two takers one wins.
 */
public final class JdbcMemberTable implements AutoCloseable {
  private static final String MEMBER_COLUMNS =
      "member_id, catalog_name, host, pid, process, started_at_millis, heartbeat_at_millis,"
          + " lease_millis";

  private final TurnTakingConnection store;

  private JdbcMemberTable(TurnTakingConnection store) {
    this.store = requireNonNull(store, "store is null");
  }

  /** Connects to {@code location}, migrating its schema when it is behind. */
  public static JdbcMemberTable open(StoreLocation location) {
    return new JdbcMemberTable(TurnTakingConnection.open(location));
  }

  /** Adds {@code member}, or replaces the row of the same id. */
  public void register(MemberRow member) {
    store.inTransaction(
        "register member " + member.memberId(),
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement("DELETE FROM lakeops_member WHERE member_id = ?")) {
            delete.setString(1, member.memberId());
            delete.executeUpdate();
          }
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO lakeops_member ("
                      + MEMBER_COLUMNS
                      + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, member.memberId());
            insert.setString(2, member.catalogName());
            insert.setString(3, member.host());
            insert.setLong(4, member.pid());
            insert.setString(5, member.process());
            insert.setLong(6, member.startedAt().toEpochMilli());
            insert.setLong(7, member.heartbeatAt().toEpochMilli());
            insert.setLong(8, member.lease().toMillis());
            insert.executeUpdate();
          }
          return null;
        });
  }

  /**
   * Renews {@code memberId}'s heartbeat.
   *
   * @return false when its row is gone (another member declared it dead)
   */
  public boolean heartbeat(String memberId, Instant at) {
    return store.inTransaction(
        "renew member " + memberId,
        connection -> {
          try (PreparedStatement update =
              connection.prepareStatement(
                  "UPDATE lakeops_member SET heartbeat_at_millis = ? WHERE member_id = ?")) {
            update.setLong(1, at.toEpochMilli());
            update.setString(2, memberId);
            return update.executeUpdate() == 1;
          }
        });
  }

  /** Every member of {@code catalogName}, alive or not, oldest first. */
  public List<MemberRow> members(String catalogName) {
    return store.inTransaction(
        "read the members of " + catalogName,
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT "
                      + MEMBER_COLUMNS
                      + " FROM lakeops_member WHERE catalog_name = ?"
                      + " ORDER BY started_at_millis, member_id")) {
            select.setString(1, catalogName);
            List<MemberRow> members = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
              while (row.next()) {
                members.add(
                    new MemberRow(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getLong(4),
                        row.getString(5),
                        Instant.ofEpochMilli(row.getLong(6)),
                        Instant.ofEpochMilli(row.getLong(7)),
                        Duration.ofMillis(row.getLong(8))));
              }
            }
            return members;
          }
        });
  }

  /**
   * Removes {@code member}'s row and its table ownerships when its heartbeat is still the one read
   * (it did not come back meanwhile).
   *
   * @return whether this call removed it: only one of several callers cleans up after a member
   */
  public boolean remove(MemberRow member) {
    return store.inTransaction(
        "remove member " + member.memberId(),
        connection -> {
          boolean removed;
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "DELETE FROM lakeops_member WHERE member_id = ? AND heartbeat_at_millis = ?")) {
            delete.setString(1, member.memberId());
            delete.setLong(2, member.heartbeatAt().toEpochMilli());
            removed = delete.executeUpdate() == 1;
          }
          if (removed) {
            try (PreparedStatement release =
                connection.prepareStatement(
                    "DELETE FROM lakeops_table_owner WHERE member_id = ?")) {
              release.setString(1, member.memberId());
              release.executeUpdate();
            }
          }
          return removed;
        });
  }

  /** Leaves: removes {@code memberId}'s row and every table it owns. */
  public void leave(String memberId) {
    store.inTransaction(
        "remove member " + memberId,
        connection -> {
          for (String sql :
              List.of(
                  "DELETE FROM lakeops_table_owner WHERE member_id = ?",
                  "DELETE FROM lakeops_member WHERE member_id = ?")) {
            try (PreparedStatement delete = connection.prepareStatement(sql)) {
              delete.setString(1, memberId);
              delete.executeUpdate();
            }
          }
          return null;
        });
  }

  /** The owner of each owned table of {@code catalogName}: table name to member id. */
  public Map<String, String> owners(String catalogName) {
    return store.inTransaction(
        "read the table owners of " + catalogName,
        connection -> {
          try (PreparedStatement select =
              connection.prepareStatement(
                  "SELECT table_name, member_id FROM lakeops_table_owner WHERE catalog_name = ?")) {
            select.setString(1, catalogName);
            Map<String, String> owners = new LinkedHashMap<>();
            try (ResultSet row = select.executeQuery()) {
              while (row.next()) {
                owners.put(row.getString(1), row.getString(2));
              }
            }
            return owners;
          }
        });
  }

  /**
   * Takes each of {@code claims} for {@code memberId}, in one transaction: a free table, or one
   * still owned by the member the claim names. Read {@link #owners} after to learn which it got.
   */
  public void claim(
      String catalogName, String memberId, Collection<OwnerClaim> claims, Instant now) {
    if (claims.isEmpty()) {
      return;
    }
    store.inTransaction(
        "take " + claims.size() + " table(s) of " + catalogName + " for " + memberId,
        connection -> {
          try (PreparedStatement free =
                  connection.prepareStatement(
                      "INSERT INTO lakeops_table_owner (catalog_name, table_name, member_id,"
                          + " since_millis) VALUES (?, ?, ?, ?)"
                          + " ON CONFLICT (catalog_name, table_name) DO NOTHING");
              PreparedStatement taken =
                  connection.prepareStatement(
                      "UPDATE lakeops_table_owner SET member_id = ?, since_millis = ?"
                          + " WHERE catalog_name = ? AND table_name = ? AND member_id = ?")) {
            for (OwnerClaim claim : claims) {
              if (claim.previousOwner().isEmpty()) {
                free.setString(1, catalogName);
                free.setString(2, claim.tableName());
                free.setString(3, memberId);
                free.setLong(4, now.toEpochMilli());
                free.addBatch();
              } else {
                taken.setString(1, memberId);
                taken.setLong(2, now.toEpochMilli());
                taken.setString(3, catalogName);
                taken.setString(4, claim.tableName());
                taken.setString(5, claim.previousOwner().get());
                taken.addBatch();
              }
            }
            free.executeBatch();
            taken.executeBatch();
          }
          return null;
        });
  }

  /** Gives up {@code memberId}'s ownership of {@code tableNames} (others' stay). */
  public void release(String catalogName, String memberId, Collection<String> tableNames) {
    if (tableNames.isEmpty()) {
      return;
    }
    store.inTransaction(
        "release " + tableNames.size() + " table(s) of " + catalogName,
        connection -> {
          try (PreparedStatement delete =
              connection.prepareStatement(
                  "DELETE FROM lakeops_table_owner"
                      + " WHERE catalog_name = ? AND table_name = ? AND member_id = ?")) {
            for (String table : tableNames) {
              delete.setString(1, catalogName);
              delete.setString(2, table);
              delete.setString(3, memberId);
              delete.addBatch();
            }
            delete.executeBatch();
          }
          return null;
        });
  }

  /** Where the members live, safe for messages (no password). */
  public String describe() {
    return store.location().describe();
  }

  @Override
  public void close() {
    store.close();
  }
}
