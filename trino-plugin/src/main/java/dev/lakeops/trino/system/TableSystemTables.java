package dev.lakeops.trino.system;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.trino.connector.IcebergTables;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import java.util.Optional;

/**
 * The per-table system tables of the connector, named as Trino's Iceberg connector names its
 * metadata tables: {@code "t$health"} for table {@code t}. A name without a known suffix, or whose
 * table does not exist in the Iceberg catalog, is no table.
 */
public final class TableSystemTables {
  private final IcebergTables tables;

  @Inject
  public TableSystemTables(IcebergTables tables) {
    this.tables = requireNonNull(tables, "tables is null");
  }

  public Optional<SystemTable> find(SchemaTableName name) {
    requireNonNull(name, "name is null");
    int separator = name.getTableName().lastIndexOf('$');
    if (separator <= 0
        || !name.getTableName().substring(separator + 1).equals(HealthSystemTable.SUFFIX)) {
      return Optional.empty();
    }
    SchemaTableName baseTable =
        new SchemaTableName(name.getSchemaName(), name.getTableName().substring(0, separator));
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      return tables
          .find(baseTable)
          .map(table -> new HealthSystemTable(name, baseTable, table, tables.redactor()));
    }
  }
}
