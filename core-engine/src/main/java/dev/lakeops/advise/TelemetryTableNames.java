package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TableMatch;
import org.apache.iceberg.Table;

/**
 * How telemetry is found for an Iceberg table. {@link #of(Table)}: the name of {@link Table#name()}
 * ({@code catalog.namespace.table}); {@link #match(Table)}: that name with the table's UUID and
 * location, so that queries engines recorded under their own catalog names apply too (by UUID or
 * location when the engine recorded them, else by namespace and table name in any catalog).
 */
public final class TelemetryTableNames {
  private TelemetryTableNames() {}

  public static TableName of(Table table) {
    requireNonNull(table, "table is null");
    String name = table.name();
    int firstDot = name.indexOf('.');
    int lastDot = name.lastIndexOf('.');
    if (firstDot <= 0 || lastDot == firstDot || lastDot == name.length() - 1) {
      throw new IllegalArgumentException(
          "Table name '"
              + name
              + "' is not catalog.namespace.table: load the table through a catalog"
              + " to read its telemetry");
    }
    return TableName.of(
        name.substring(0, firstDot),
        name.substring(firstDot + 1, lastDot),
        name.substring(lastDot + 1));
  }

  /** The table's name, UUID and location. */
  public static TableMatch match(Table table) {
    return new TableMatch(of(table), identity(table));
  }

  /** The table's UUID (from its metadata) and base location. */
  public static TableIdentity identity(Table table) {
    requireNonNull(table, "table is null");
    return TableIdentity.of(
        table.uuid() == null ? null : table.uuid().toString(), table.location());
  }
}
