package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveOrphanFilesCall;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.util.Map;

/**
 * {@code CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 't', older_than
 * => '3d', location => '...', dry_run => false, max_concurrent_deletes => 4, equal_schemes =>
 * MAP(...), equal_authorities => MAP(...), prefix_mismatch_mode => 'error')}, the arguments of
 * {@link Operations#REMOVE_ORPHAN_FILES}. A cutoff under the 3-day safety floor is refused.
 */
public final class RemoveOrphanFilesProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;

  @Inject
  public RemoveOrphanFilesProcedure(TableProcedureRunner runner, TypeManager typeManager) {
    super(Operations.REMOVE_ORPHAN_FILES, "removeOrphanFiles", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
  }

  public void removeOrphanFiles(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      String olderThan,
      String location,
      Boolean dryRun,
      Long maxConcurrentDeletes,
      Map<?, ?> equalSchemes,
      Map<?, ?> equalAuthorities,
      String prefixMismatchMode) {
    runner.run(
        call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
        () ->
            RemoveOrphanFilesCall.bind(
                ProcedureArguments.given(session)
                    .with(Operations.OLDER_THAN, olderThan)
                    .with("location", location)
                    .with(Operations.DRY_RUN, dryRun)
                    .with(Operations.MAX_CONCURRENT_DELETES, maxConcurrentDeletes)
                    .with("equal_schemes", equalSchemes)
                    .with("equal_authorities", equalAuthorities)
                    .with("prefix_mismatch_mode", prefixMismatchMode)),
        ProcedureArguments::run,
        RunOutcomes::orphans);
  }
}
