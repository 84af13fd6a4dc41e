package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.HealthCall;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;

/**
 * {@code CALL lakeops.system.health(schema_name => 'db', table_name => 't')}: reads the table's
 * layout health from metadata and records it as a run of {@code lakeops.system.runs} (a CALL
 * returns no rows). {@code SELECT * FROM lakeops.db."t$health"} returns the same signals as a row.
 */
public final class HealthProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;

  @Inject
  public HealthProcedure(TableProcedureRunner runner, TypeManager typeManager) {
    super(Operations.HEALTH, "health", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
  }

  public void health(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName) {
    runner.run(
        call(session, accessControl, TableAccess.READ, schemaName, tableName),
        () -> HealthCall.bind(ProcedureArguments.given(session)),
        ProcedureArguments::run,
        RunOutcomes::health);
  }
}
