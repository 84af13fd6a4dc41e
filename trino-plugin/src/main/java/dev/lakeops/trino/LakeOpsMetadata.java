package dev.lakeops.trino;

import static java.util.Objects.requireNonNull;

import dev.lakeops.trino.connector.IcebergTables;
import dev.lakeops.trino.system.TableSystemTables;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorMetadata;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import java.util.List;
import java.util.Optional;

/**
 * The connector has no tables of its own: the {@code system} schema holds its procedures and the
 * {@code runs} table, and {@code "t$health"} names the health of Iceberg table {@code t}.
 */
final class LakeOpsMetadata implements ConnectorMetadata {
  static final String SYSTEM_SCHEMA = "system";

  private final IcebergTables tables;
  private final TableSystemTables tableSystemTables;

  LakeOpsMetadata(IcebergTables tables, TableSystemTables tableSystemTables) {
    this.tables = requireNonNull(tables, "tables is null");
    this.tableSystemTables = requireNonNull(tableSystemTables, "tableSystemTables is null");
  }

  @Override
  public List<String> listSchemaNames(ConnectorSession session) {
    return List.of(SYSTEM_SCHEMA);
  }

  /**
   * The Iceberg catalog's namespaces exist here too (unlisted, so that listing every catalog's
   * schemas never waits on the Iceberg catalog): {@code lakeops.db."t$health"} resolves.
   */
  @Override
  public boolean schemaExists(ConnectorSession session, String schemaName) {
    if (schemaName.equals(SYSTEM_SCHEMA)) {
      return true;
    }
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      return tables.namespaceExists(schemaName);
    }
  }

  @Override
  public Optional<SystemTable> getSystemTable(ConnectorSession session, SchemaTableName tableName) {
    return tableSystemTables.find(tableName);
  }
}
