package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TableName;
import org.apache.iceberg.Table;

/**
 * The name under which engines record telemetry for an Iceberg table: the catalog name, the
 * namespace and the table name of {@link Table#name()} ({@code catalog.namespace.table}). The
 * LakeOps catalog is called {@code lakeops} unless {@code -C name=...} says otherwise; give it the
 * name your engines use for the catalog so that their telemetry applies.
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
          "Table name '" + name + "' is not catalog.namespace.table: load the table through a catalog"
              + " to read its telemetry");
    }
    return TableName.of(
        name.substring(0, firstDot), name.substring(firstDot + 1, lastDot), name.substring(lastDot + 1));
  }
}
