package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.MaintainCall;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.util.List;

/**
 * {@code CALL lakeops.system.maintain(schema_name => 'db', table_name => 't', skip_steps =>
 * ARRAY['orphans'], dry_run => false)}: expire, orphans, compact and manifests in that order, each
 * with its defaults.
 */
public final class MaintainProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;

  @Inject
  public MaintainProcedure(TableProcedureRunner runner, TypeManager typeManager) {
    super(Operations.MAINTAIN, "maintain", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
  }

  public void maintain(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      List<?> skip,
      Boolean dryRun) {
    runner.run(
        call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
        () ->
            MaintainCall.bind(
                ProcedureArguments.given(session)
                    .with("skip_steps", skip)
                    .with(Operations.DRY_RUN, dryRun)),
        ProcedureArguments::run,
        result -> RunOutcomes.maintenance(result, Boolean.TRUE.equals(dryRun)));
  }
}
