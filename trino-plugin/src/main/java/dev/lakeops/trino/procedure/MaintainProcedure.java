package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.procedure.ProcedureArguments.SCHEMA_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.SYSTEM_SCHEMA;
import static dev.lakeops.trino.procedure.ProcedureArguments.TABLE_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.optional;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import com.google.inject.Provider;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.maintain.MaintenanceOptions;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.TableMaintainer;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import java.util.List;

/**
 * {@code CALL lakeops.system.maintain(schema_name => 'db', table_name => 't', skip_steps =>
 * ARRAY['orphans'], dry_run => false)}: expire, orphans, compact and manifests in that order, each
 * with its defaults.
 */
public final class MaintainProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;

  @Inject
  public MaintainProcedure(TableProcedureRunner runner) {
    this.runner = requireNonNull(runner, "runner is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "maintain",
        List.of(
            SCHEMA_NAME,
            TABLE_NAME,
            optional("SKIP_STEPS", ProcedureArguments.varcharArray(), null),
            optional("DRY_RUN", BOOLEAN, false)),
        ProcedureArguments.handle(this, "maintain"));
  }

  public void maintain(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      List<?> skip,
      Boolean dryRun) {
    runner.runRecorded(
        session,
        accessControl,
        TableAccess.WRITE,
        "maintain",
        schemaName,
        tableName,
        () ->
            MaintenanceOptions.defaults(
                MaintenanceStep.parseAll(ProcedureArguments.stringList(skip)),
                ProcedureArguments.flag(dryRun)),
        (table, options, recorder) ->
            new TableMaintainer(
                    CompactionListener.NONE, recorder.withDryRun(options.compaction().dryRun()))
                .maintain(table, options),
        result -> RunOutcomes.maintenance(result, ProcedureArguments.flag(dryRun)));
  }
}
