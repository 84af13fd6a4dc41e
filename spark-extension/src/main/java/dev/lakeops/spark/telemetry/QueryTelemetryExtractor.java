package dev.lakeops.spark.telemetry;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * One {@link TelemetryEvent} per Iceberg table a query read, from its optimized logical plan: the
 * same event model as the Trino listener, with the rows of the files the scans planned as the scan
 * volume, and the table's UUID and location. Each column, clause and predicate kind is reported
 * once; a column read but used in no clause is a projection. An {@code IS NOT NULL} filter on a
 * column that is also filtered or joined on is left out, because Spark's optimizer infers exactly
 * those.
 */
final class QueryTelemetryExtractor {
  static final String ENGINE = "spark";

  private QueryTelemetryExtractor() {}

  static List<TelemetryEvent> extract(
      LogicalPlan optimizedPlan, String queryId, Instant occurredAt) {
    PlanColumnUses plan = PlanColumnUses.of(optimizedPlan);
    Map<TableName, List<ColumnUse>> byTable = new LinkedHashMap<>();
    plan.readColumns().keySet().forEach(table -> byTable.put(table, new ArrayList<>()));
    for (ColumnUse use : plan.uses()) {
      byTable.computeIfAbsent(use.column().table(), table -> new ArrayList<>()).add(use);
    }
    List<TelemetryEvent> events = new ArrayList<>();
    for (Map.Entry<TableName, List<ColumnUse>> table : byTable.entrySet()) {
      Set<ColumnReference> references = references(table.getValue());
      Set<String> inClause = new LinkedHashSet<>();
      references.forEach(reference -> inClause.add(reference.column()));
      for (String column : plan.readColumns().getOrDefault(table.getKey(), Set.of())) {
        if (!inClause.contains(column)) {
          references.add(ColumnReference.of(column, Clause.PROJECTION));
        }
      }
      events.add(
          new TelemetryEvent(
              ENGINE,
              table.getKey(),
              queryId,
              occurredAt,
              List.copyOf(references),
              scanVolume(plan, table.getKey()),
              plan.identities().getOrDefault(table.getKey(), TableIdentity.unknown())));
    }
    return events;
  }

  /** Rows of the planned files; bytes are unknown (Iceberg's size estimate is not bytes read). */
  private static ScanVolume scanVolume(PlanColumnUses plan, TableName table) {
    Long rows = plan.scannedRows().get(table);
    return rows == null || rows < 0 ? ScanVolume.unknown() : ScanVolume.ofRows(rows);
  }

  private static Set<ColumnReference> references(List<ColumnUse> uses) {
    Set<String> filteredOrJoined = new LinkedHashSet<>();
    for (ColumnUse use : uses) {
      Clause clause = use.reference().clause();
      if (!use.notNullCheck() && (clause == Clause.FILTER || clause == Clause.JOIN_KEY)) {
        filteredOrJoined.add(use.column().column());
      }
    }
    Set<ColumnReference> references = new LinkedHashSet<>();
    for (ColumnUse use : uses) {
      if (!use.notNullCheck() || !filteredOrJoined.contains(use.column().column())) {
        references.add(use.reference());
      }
    }
    return references;
  }
}
