package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.trino.connector.IcebergTables;
import io.airlift.log.Logger;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import java.util.function.Function;
import org.apache.iceberg.Table;

/**
 * What every procedure does around its core call: check that the caller may write the table,
 * load it, run the operation on the coordinator and report failures with a LakeOps error code.
 */
public final class TableProcedureRunner {
  private static final Logger log = Logger.get(TableProcedureRunner.class);

  private final IcebergTables tables;

  @Inject
  public TableProcedureRunner(IcebergTables tables) {
    this.tables = requireNonNull(tables, "tables is null");
  }

  public <T> T run(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String operation,
      String schemaName,
      String tableName,
      Function<Table, T> action) {
    SchemaTableName name =
        new SchemaTableName(
            ProcedureErrors.required(schemaName, "schema_name"), ProcedureErrors.required(tableName, "table_name"));
    // Maintenance rewrites and deletes files: the caller must be allowed both on the table
    accessControl.checkCanInsertIntoTable(null, name);
    accessControl.checkCanDeleteFromTable(null, name);
    try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(getClass().getClassLoader())) {
      Table table = tables.load(name);
      T result = action.apply(table);
      log.info("%s of %s by %s (query %s): %s", operation, name, session.getUser(), session.getQueryId(), result);
      return result;
    } catch (RuntimeException e) {
      throw ProcedureErrors.translate(operation, name, e);
    }
  }
}
