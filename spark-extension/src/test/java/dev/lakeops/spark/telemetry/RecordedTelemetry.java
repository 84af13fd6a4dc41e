package dev.lakeops.spark.telemetry;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads what the listener wrote, straight from the store's tables, one query at a time: each call
 * returns the events not seen by an earlier call, as {@code table -> {"column CLAUSE KIND"}}.
 */
final class RecordedTelemetry {
  private final String jdbcUrl;
  private final Set<String> seenEvents = new HashSet<>();

  RecordedTelemetry(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  /** Rows scanned per new event's table, as recorded ({@code null} when unknown). */
  Map<String, Long> rowsScanned() throws SQLException {
    Map<String, Long> result = new TreeMap<>();
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT event_id, engine, catalog_name, namespace_name, table_name, rows_scanned FROM telemetry_event");
        ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        if (!seenEvents.contains(rows.getString(1))) {
          long scanned = rows.getLong(6);
          result.put(
              rows.getString(2)
                  + ":"
                  + rows.getString(3)
                  + "."
                  + rows.getString(4)
                  + "."
                  + rows.getString(5),
              rows.wasNull() ? null : scanned);
        }
      }
    }
    return result;
  }

  Map<String, Set<String>> newEvents() throws SQLException {
    Map<String, Set<String>> result = new TreeMap<>();
    Set<String> events = new HashSet<>();
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT e.event_id, e.engine, e.catalog_name, e.namespace_name, e.table_name,"
                    + " c.column_name, c.clause, c.predicate_kind"
                    + " FROM telemetry_event e JOIN telemetry_column_use c ON c.event_id = e.event_id");
        ResultSet rows = query.executeQuery()) {
      while (rows.next()) {
        String event = rows.getString(1);
        if (seenEvents.contains(event)) {
          continue;
        }
        events.add(event);
        String table =
            rows.getString(2)
                + ":"
                + rows.getString(3)
                + "."
                + rows.getString(4)
                + "."
                + rows.getString(5);
        String kind = rows.getString(8);
        result
            .computeIfAbsent(table, key -> new TreeSet<>())
            .add(rows.getString(6) + " " + rows.getString(7) + (kind == null ? "" : " " + kind));
      }
    }
    seenEvents.addAll(events);
    return result;
  }
}
