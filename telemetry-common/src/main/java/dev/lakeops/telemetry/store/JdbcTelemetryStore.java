package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link TelemetryStore} on SQLite or PostgreSQL through one JDBC connection. Calls from many
 * threads take turns on the connection; a broken connection is replaced on the next call.
 */
public final class JdbcTelemetryStore implements TelemetryStore {
  private static final String INSERT_EVENT =
      "INSERT INTO telemetry_event (event_id, engine, catalog_name, namespace_name, table_name,"
          + " query_id, occurred_at_millis, bytes_scanned, rows_scanned, table_uuid, table_location)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String INSERT_COLUMN_USE =
      "INSERT INTO telemetry_column_use (event_id, occurred_at_millis, column_name, clause,"
          + " predicate_kind) VALUES (?, ?, ?, ?, ?)";
  private static final String SELECT_USAGE =
      "SELECT e.event_id, e.catalog_name, e.namespace_name, e.table_name, e.engine,"
          + " e.occurred_at_millis, e.bytes_scanned, e.rows_scanned, u.column_name, u.clause,"
          + " u.predicate_kind"
          + " FROM telemetry_event e JOIN telemetry_column_use u ON u.event_id = e.event_id"
          + " WHERE e.occurred_at_millis >= ? AND e.occurred_at_millis <= ?";
  private static final String FOR_TABLE =
      " AND e.catalog_name = ? AND e.namespace_name = ? AND e.table_name = ?";
  private static final String MATCHING_NAMES =
      "(LOWER(e.namespace_name) = ? AND LOWER(e.table_name) = ?)";
  private static final String SELECT_TABLE_NAMES =
      "SELECT DISTINCT catalog_name, namespace_name, table_name FROM telemetry_event"
          + " WHERE occurred_at_millis >= ? AND occurred_at_millis <= ?";
  private static final int FETCH_SIZE = 1_000;

  private final StoreLocation location;
  private final ReentrantLock lock = new ReentrantLock();
  private Connection connection;
  private boolean closed;

  private JdbcTelemetryStore(StoreLocation location, Connection connection) {
    this.location = requireNonNull(location, "location is null");
    this.connection = requireNonNull(connection, "connection is null");
  }

  /** Connects and migrates the schema to the latest version. */
  public static JdbcTelemetryStore open(StoreLocation location) {
    Connection connection = StoreConnections.open(location);
    try {
      SchemaMigrator.migrate(connection, location.kind());
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection, e);
      if (e instanceof TelemetryStoreException storeException) {
        throw storeException;
      }
      throw new TelemetryStoreException(
          "Cannot migrate telemetry store " + location + ": " + e.getMessage(), e);
    }
    return new JdbcTelemetryStore(location, connection);
  }

  public StoreLocation location() {
    return location;
  }

  /** The schema version in force. */
  public int schemaVersion() {
    return inTransaction(
        "read the schema version",
        connection -> {
          try (Statement statement = connection.createStatement()) {
            return SchemaMigrator.currentVersion(statement);
          }
        });
  }

  @Override
  public void append(List<TelemetryEvent> events) {
    requireNonNull(events, "events is null");
    if (events.isEmpty()) {
      return;
    }
    inTransaction(
        "append " + events.size() + " events",
        connection -> {
          try (PreparedStatement eventInsert = connection.prepareStatement(INSERT_EVENT);
              PreparedStatement columnInsert = connection.prepareStatement(INSERT_COLUMN_USE)) {
            for (TelemetryEvent event : events) {
              addEvent(eventInsert, columnInsert, event);
            }
            eventInsert.executeBatch();
            columnInsert.executeBatch();
          }
          return null;
        });
  }

  private static void addEvent(
      PreparedStatement eventInsert, PreparedStatement columnInsert, TelemetryEvent event)
      throws SQLException {
    String eventId = UUID.randomUUID().toString();
    long occurredAtMillis = event.occurredAt().toEpochMilli();
    eventInsert.setString(1, eventId);
    eventInsert.setString(2, event.engine());
    eventInsert.setString(3, event.table().catalog());
    eventInsert.setString(4, event.table().namespace());
    eventInsert.setString(5, event.table().table());
    eventInsert.setString(6, event.queryId());
    eventInsert.setLong(7, occurredAtMillis);
    setOptionalLong(eventInsert, 8, event.scanVolume().bytes());
    setOptionalLong(eventInsert, 9, event.scanVolume().rows());
    setOptionalString(eventInsert, 10, event.identity().uuid());
    setOptionalString(eventInsert, 11, event.identity().location());
    eventInsert.addBatch();
    for (ColumnReference reference : event.columns()) {
      columnInsert.setString(1, eventId);
      columnInsert.setLong(2, occurredAtMillis);
      columnInsert.setString(3, reference.column());
      columnInsert.setString(4, reference.clause().name());
      if (reference.predicateKind().isPresent()) {
        columnInsert.setString(5, reference.predicateKind().get().name());
      } else {
        columnInsert.setNull(5, Types.VARCHAR);
      }
      columnInsert.addBatch();
    }
  }

  @Override
  public long countEvents() {
    return inTransaction(
        "count events",
        connection -> {
          try (PreparedStatement count =
                  connection.prepareStatement("SELECT COUNT(*) FROM telemetry_event");
              ResultSet result = count.executeQuery()) {
            result.next();
            return result.getLong(1);
          }
        });
  }

  @Override
  public long deleteEventsOlderThan(Instant cutoff) {
    requireNonNull(cutoff, "cutoff is null");
    return inTransaction(
        "delete events older than " + cutoff,
        connection -> {
          // Both tables carry the event time, so each delete stands alone and a concurrent writer
          // can leave at most column rows that the next run removes.
          try (PreparedStatement columns =
                  connection.prepareStatement(
                      "DELETE FROM telemetry_column_use WHERE occurred_at_millis < ?");
              PreparedStatement events =
                  connection.prepareStatement(
                      "DELETE FROM telemetry_event WHERE occurred_at_millis < ?")) {
            columns.setLong(1, cutoff.toEpochMilli());
            columns.executeUpdate();
            events.setLong(1, cutoff.toEpochMilli());
            return (long) events.executeUpdate();
          }
        });
  }

  @Override
  public TableUsage usage(TableName table, UsageQuery query) {
    requireNonNull(table, "table is null");
    List<TableUsage> usages = readUsage(Optional.of(table), query);
    return usages.isEmpty() ? TableUsage.empty(table) : usages.get(0);
  }

  @Override
  public List<TableUsage> usage(UsageQuery query) {
    return readUsage(Optional.empty(), query);
  }

  @Override
  public TableUsage usage(TableMatch table, UsageQuery query) {
    requireNonNull(table, "table is null");
    requireNonNull(query, "query is null");
    List<String> parameters = new ArrayList<>();
    String condition = matchCondition(table, parameters);
    List<TableUsage> usages =
        inTransaction(
            "read usage",
            connection -> {
              UsageAggregator aggregator = new UsageAggregator(query, Optional.of(table.name()));
              try (PreparedStatement select =
                  connection.prepareStatement(SELECT_USAGE + " AND " + condition)) {
                select.setFetchSize(FETCH_SIZE);
                select.setLong(1, query.oldest().toEpochMilli());
                select.setLong(2, query.asOf().toEpochMilli());
                for (int index = 0; index < parameters.size(); index++) {
                  select.setString(3 + index, parameters.get(index));
                }
                try (ResultSet result = select.executeQuery()) {
                  while (result.next()) {
                    aggregator.add(readRow(result));
                  }
                }
              }
              return aggregator.result();
            });
    return usages.isEmpty() ? TableUsage.empty(table.name()) : usages.get(0);
  }

  /** The SQL condition of {@link TableMatch}; its parameters are appended to {@code parameters}. */
  private static String matchCondition(TableMatch table, List<String> parameters) {
    List<String> withoutUuidParameters = new ArrayList<>();
    String withoutUuid = MATCHING_NAMES;
    if (table.identity().location().isPresent()) {
      withoutUuid = "(e.table_location = ? OR " + MATCHING_NAMES + ")";
      withoutUuidParameters.add(table.identity().location().get());
    }
    withoutUuidParameters.add(table.name().namespace().toLowerCase(Locale.ROOT));
    withoutUuidParameters.add(table.name().table().toLowerCase(Locale.ROOT));
    if (table.identity().uuid().isEmpty()) {
      parameters.addAll(withoutUuidParameters);
      return withoutUuid;
    }
    parameters.add(table.identity().uuid().get());
    parameters.addAll(withoutUuidParameters);
    return "(e.table_uuid = ? OR (e.table_uuid IS NULL AND " + withoutUuid + "))";
  }

  @Override
  public List<TableName> tableNames(UsageQuery query) {
    requireNonNull(query, "query is null");
    return inTransaction(
        "list table names",
        connection -> {
          List<TableName> names = new ArrayList<>();
          try (PreparedStatement select = connection.prepareStatement(SELECT_TABLE_NAMES)) {
            select.setLong(1, query.oldest().toEpochMilli());
            select.setLong(2, query.asOf().toEpochMilli());
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                names.add(
                    TableName.of(result.getString(1), result.getString(2), result.getString(3)));
              }
            }
          }
          names.sort(Comparator.comparing(TableName::toString));
          return names;
        });
  }

  private List<TableUsage> readUsage(Optional<TableName> table, UsageQuery query) {
    requireNonNull(query, "query is null");
    return inTransaction(
        "read usage",
        connection -> {
          UsageAggregator aggregator = new UsageAggregator(query);
          try (PreparedStatement select =
              connection.prepareStatement(SELECT_USAGE + (table.isPresent() ? FOR_TABLE : ""))) {
            select.setFetchSize(FETCH_SIZE);
            select.setLong(1, query.oldest().toEpochMilli());
            select.setLong(2, query.asOf().toEpochMilli());
            if (table.isPresent()) {
              select.setString(3, table.get().catalog());
              select.setString(4, table.get().namespace());
              select.setString(5, table.get().table());
            }
            try (ResultSet result = select.executeQuery()) {
              while (result.next()) {
                aggregator.add(readRow(result));
              }
            }
          }
          return aggregator.result();
        });
  }

  private static UsageRow readRow(ResultSet result) throws SQLException {
    String predicateKind = result.getString(11);
    return new UsageRow(
        result.getString(1),
        TableName.of(result.getString(2), result.getString(3), result.getString(4)),
        result.getString(5),
        Instant.ofEpochMilli(result.getLong(6)),
        new ScanVolume(getOptionalLong(result, 7), getOptionalLong(result, 8)),
        result.getString(9),
        Clause.valueOf(result.getString(10)),
        Optional.ofNullable(predicateKind).map(PredicateKind::valueOf));
  }

  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (connection != null) {
        connection.close();
        connection = null;
      }
    } catch (SQLException e) {
      throw new TelemetryStoreException("Cannot close telemetry store " + location, e);
    } finally {
      lock.unlock();
    }
  }

  private <T> T inTransaction(String action, SqlWork<T> work) {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("Telemetry store " + location + " is closed");
      }
      if (connection == null) {
        connection = StoreConnections.open(location);
      }
      T result = work.run(connection);
      connection.commit();
      return result;
    } catch (SQLException e) {
      discardIfBroken(e);
      throw new TelemetryStoreException(
          "Cannot " + action + " in telemetry store " + location + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  private void discardIfBroken(SQLException failure) {
    try {
      connection.rollback();
      if (connection.isValid(2)) {
        return;
      }
    } catch (SQLException rollbackFailure) {
      failure.addSuppressed(rollbackFailure);
    }
    closeQuietly(connection, failure);
    connection = null;
  }

  private static void closeQuietly(Connection connection, Exception failure) {
    try {
      connection.close();
    } catch (SQLException closeFailure) {
      failure.addSuppressed(closeFailure);
    }
  }

  private static void setOptionalLong(PreparedStatement statement, int index, OptionalLong value)
      throws SQLException {
    if (value.isPresent()) {
      statement.setLong(index, value.getAsLong());
    } else {
      statement.setNull(index, Types.BIGINT);
    }
  }

  private static void setOptionalString(
      PreparedStatement statement, int index, Optional<String> value) throws SQLException {
    if (value.isPresent()) {
      statement.setString(index, value.get());
    } else {
      statement.setNull(index, Types.VARCHAR);
    }
  }

  private static OptionalLong getOptionalLong(ResultSet result, int index) throws SQLException {
    long value = result.getLong(index);
    return result.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
  }

  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }
}
