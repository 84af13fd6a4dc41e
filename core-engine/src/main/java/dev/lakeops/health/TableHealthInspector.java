package dev.lakeops.health;

import org.apache.iceberg.Table;

/**
 * Reads {@link TableHealth} from a table's current snapshot in one go (every manifest). For
 * repeated evaluation of the same table use a {@link TableHealthTracker}, which reads only what
 * changed.
 */
public final class TableHealthInspector {
  private TableHealthInspector() {}

  /** The table-wide health with the built-in criteria. */
  public static TableHealth inspect(Table table) {
    return report(table).table();
  }

  /** The full report (partitions and score) with the built-in criteria. */
  public static TableHealthReport report(Table table) {
    return new TableHealthTracker().evaluateCurrent(table, HealthCriteria.defaults());
  }

  /** The full report against {@code criteria}. */
  public static TableHealthReport report(Table table, HealthCriteria criteria) {
    return new TableHealthTracker().evaluateCurrent(table, criteria);
  }
}
