package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

/**
 * The catalog and {@code namespace.table} the run ledger names a table by, from Iceberg's table
 * name {@code catalog.namespace.table}; a name without a catalog part (a path-based table) is its
 * own table name in catalog {@code flink}.
 */
record LedgerName(String catalog, String table) {
  static final String DEFAULT_CATALOG = "flink";

  LedgerName {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(table, "table is null");
  }

  static LedgerName of(String icebergName) {
    int firstDot = icebergName.indexOf('.');
    if (firstDot < 0 || icebergName.indexOf('.', firstDot + 1) < 0 || icebergName.contains("/")) {
      return new LedgerName(DEFAULT_CATALOG, icebergName);
    }
    return new LedgerName(icebergName.substring(0, firstDot), icebergName.substring(firstDot + 1));
  }
}
