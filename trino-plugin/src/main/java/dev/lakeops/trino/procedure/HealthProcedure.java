package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.procedure.ProcedureArguments.SCHEMA_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.SYSTEM_SCHEMA;
import static dev.lakeops.trino.procedure.ProcedureArguments.TABLE_NAME;
import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import com.google.inject.Provider;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import java.util.List;

/**
 * {@code CALL lakeops.system.health(schema_name => 'db', table_name => 't')}: reads the table's
 * layout health from metadata and records it as a run of {@code lakeops.system.runs} (a CALL
 * returns no rows). {@code SELECT * FROM lakeops.db."t$health"} returns the same signals as a row.
 */
public final class HealthProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;

  @Inject
  public HealthProcedure(TableProcedureRunner runner) {
    this.runner = requireNonNull(runner, "runner is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "health",
        List.of(SCHEMA_NAME, TABLE_NAME),
        ProcedureArguments.handle(this, "health"));
  }

  public void health(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName) {
    runner.run(
        session,
        accessControl,
        TableAccess.READ,
        "health",
        schemaName,
        tableName,
        TableHealthInspector::inspect,
        RunOutcomes::health);
  }
}
