package dev.lakeops.telemetry.event;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;

/**
 * What one query did to one table: which columns it used in which clause, and how much it read. A
 * query over several tables produces one event per table.
 *
 * @param engine the engine that ran the query, e.g. {@code trino}, {@code spark}, {@code flink}
 * @param table the table the query read
 * @param queryId the engine's query id
 * @param occurredAt when the query ran
 * @param columns the column references, in any order
 * @param scanVolume what the engine scanned from this table, when it reports it
 * @param identity the table's UUID and location, when the engine can see them; telemetry is matched
 *     to a table by these first, and by namespace and table name otherwise
 */
public record TelemetryEvent(
    String engine,
    TableName table,
    String queryId,
    Instant occurredAt,
    List<ColumnReference> columns,
    ScanVolume scanVolume,
    TableIdentity identity) {
  public TelemetryEvent {
    TableName.requireNonBlank(engine, "engine");
    requireNonNull(table, "table is null");
    TableName.requireNonBlank(queryId, "queryId");
    requireNonNull(occurredAt, "occurredAt is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(scanVolume, "scanVolume is null");
    requireNonNull(identity, "identity is null");
  }

  /** An event of an engine that knows only the table's name. */
  public TelemetryEvent(
      String engine,
      TableName table,
      String queryId,
      Instant occurredAt,
      List<ColumnReference> columns,
      ScanVolume scanVolume) {
    this(engine, table, queryId, occurredAt, columns, scanVolume, TableIdentity.unknown());
  }
}
