package dev.lakeops.trino.listener;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSet;
import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import io.trino.spi.eventlistener.ColumnInfo;
import io.trino.spi.eventlistener.QueryCompletedEvent;
import io.trino.spi.eventlistener.QueryInputMetadata;
import io.trino.spi.eventlistener.TableInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One {@link TelemetryEvent} per table of a recorded connector that a successful query read: the
 * clause of each column comes from the query's JSON plan ({@link JsonPlanColumns}); a referenced
 * column the plan shows in no clause counts as a projection.
 */
public final class QueryTelemetryExtractor {
  static final String ENGINE = "trino";

  private final Set<String> connectors;

  public QueryTelemetryExtractor(Set<String> connectors) {
    this.connectors = ImmutableSet.copyOf(requireNonNull(connectors, "connectors is null"));
  }

  public List<TelemetryEvent> extract(QueryCompletedEvent event) {
    if (event.getFailureInfo().isPresent()) {
      return List.of();
    }
    Map<TableName, QueryInputMetadata> inputs = new LinkedHashMap<>();
    for (QueryInputMetadata input : event.getIoMetadata().getInputs()) {
      if (input
          .getConnectorName()
          .map(name -> connectors.contains(name.toLowerCase(Locale.ROOT)))
          .orElse(false)) {
        inputs.put(
            TableName.of(input.getCatalogName(), input.getSchema(), input.getTable()), input);
      }
    }
    if (inputs.isEmpty()) {
      return List.of();
    }
    Map<TableName, Set<ColumnReference>> planned =
        event.getMetadata().getJsonPlan().map(JsonPlanColumns::parse).orElse(Map.of());
    List<TelemetryEvent> events = new ArrayList<>();
    for (Map.Entry<TableName, QueryInputMetadata> input : inputs.entrySet()) {
      TableName table = input.getKey();
      Set<ColumnReference> columns = new LinkedHashSet<>(planned.getOrDefault(table, Set.of()));
      Set<String> inClause = new LinkedHashSet<>();
      columns.forEach(reference -> inClause.add(reference.column()));
      for (String column : referencedColumns(event, table, input.getValue())) {
        if (!inClause.contains(column)) {
          columns.add(ColumnReference.of(column, Clause.PROJECTION));
        }
      }
      events.add(
          new TelemetryEvent(
              ENGINE,
              table,
              event.getMetadata().getQueryId(),
              event.getCreateTime(),
              List.copyOf(columns),
              scanVolume(input.getValue())));
    }
    return events;
  }

  /** Every column the query referenced: {@link TableInfo} lists them all, scanned or not. */
  private static Set<String> referencedColumns(
      QueryCompletedEvent event, TableName table, QueryInputMetadata input) {
    Set<String> columns = new LinkedHashSet<>();
    for (TableInfo info : event.getMetadata().getTables()) {
      if (info.getCatalog().equals(table.catalog())
          && info.getSchema().equals(table.namespace())
          && info.getTable().equals(table.table())) {
        info.getColumns().stream().map(ColumnInfo::getColumn).forEach(columns::add);
      }
    }
    input.getColumns().forEach(column -> columns.add(column.name()));
    return columns;
  }

  private static ScanVolume scanVolume(QueryInputMetadata input) {
    OptionalLong bytes = input.getPhysicalInputBytes();
    OptionalLong rows = input.getPhysicalInputRows();
    return new ScanVolume(bytes, rows);
  }
}
