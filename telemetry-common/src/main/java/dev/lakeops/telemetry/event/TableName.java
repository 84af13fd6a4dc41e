package dev.lakeops.telemetry.event;

import static java.util.Objects.requireNonNull;

/**
 * A table as the engine named it.
 *
 * @param catalog the catalog name, e.g. {@code lake}
 * @param namespace the namespace, levels joined by dots, e.g. {@code sales.eu}
 * @param table the table name within the namespace
 */
public record TableName(String catalog, String namespace, String table) {
  public TableName {
    requireNonBlank(catalog, "catalog");
    requireNonBlank(namespace, "namespace");
    requireNonBlank(table, "table");
  }

  public static TableName of(String catalog, String namespace, String table) {
    return new TableName(catalog, namespace, table);
  }

  static void requireNonBlank(String value, String name) {
    requireNonNull(value, name + " is null");
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " is blank");
    }
  }

  @Override
  public String toString() {
    return catalog + "." + namespace + "." + table;
  }
}
