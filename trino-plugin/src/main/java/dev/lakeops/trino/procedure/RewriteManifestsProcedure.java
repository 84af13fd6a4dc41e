package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewriteManifestsCall;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;

/**
 * {@code CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 't', spec_id =>
 * 0, target_manifest_size => '8MB', dry_run => false)}, the arguments of {@link
 * Operations#REWRITE_MANIFESTS}.
 */
public final class RewriteManifestsProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;

  @Inject
  public RewriteManifestsProcedure(TableProcedureRunner runner, TypeManager typeManager) {
    super(Operations.REWRITE_MANIFESTS, "rewriteManifests", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
  }

  public void rewriteManifests(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      Long specId,
      String targetManifestSize,
      Boolean dryRun) {
    runner.run(
        call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
        () ->
            RewriteManifestsCall.bind(
                ProcedureArguments.given(session)
                    .with("spec_id", specId)
                    .with("target_manifest_size", targetManifestSize)
                    .with(Operations.DRY_RUN, dryRun)),
        ProcedureArguments::run,
        RunOutcomes::manifests);
  }
}
