package dev.lakeops.runs;

import org.apache.iceberg.Table;

/** The name a table has in the ledger: {@code namespace.table}, without the catalog's name. */
public final class LedgerTableNames {
  private LedgerTableNames() {}

  public static String of(Table table, String catalogName) {
    String name = table.name();
    String prefix = catalogName + ".";
    return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
  }
}
