package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.TableName;
import java.util.List;
import java.util.Optional;

/**
 * Usage of one table's columns within a {@link UsageQuery}'s window.
 *
 * @param table the table
 * @param eventCount events recorded for the table in the window
 * @param filterEventCount of those, events with at least one filter reference
 * @param distinctEngines how many different engines queried the table
 * @param columns one entry per column and clause, by descending weighted count
 * @param recordedAs the names the engines recorded these events under, sorted
 * @param queryClasses the events with filters grouped by what they filtered, by descending weighted
 *     count
 */
public record TableUsage(
    TableName table,
    long eventCount,
    long filterEventCount,
    int distinctEngines,
    List<ColumnClauseUsage> columns,
    List<TableName> recordedAs,
    List<QueryClassUsage> queryClasses) {
  public TableUsage {
    requireNonNull(table, "table is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    recordedAs = List.copyOf(requireNonNull(recordedAs, "recordedAs is null"));
    queryClasses = List.copyOf(requireNonNull(queryClasses, "queryClasses is null"));
  }

  /** Usage without the names recorded and the query classes. */
  public TableUsage(
      TableName table,
      long eventCount,
      long filterEventCount,
      int distinctEngines,
      List<ColumnClauseUsage> columns) {
    this(table, eventCount, filterEventCount, distinctEngines, columns, List.of(), List.of());
  }

  public static TableUsage empty(TableName table) {
    return new TableUsage(table, 0, 0, 0, List.of());
  }

  /** The entries of one clause, by descending weighted count. */
  public List<ColumnClauseUsage> forClause(Clause clause) {
    return columns.stream().filter(usage -> usage.clause() == clause).toList();
  }

  public Optional<ColumnClauseUsage> find(String column, Clause clause) {
    return columns.stream()
        .filter(usage -> usage.clause() == clause && usage.column().equals(column))
        .findFirst();
  }
}
