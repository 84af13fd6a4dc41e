package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operations;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.ByteSize;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.util.Optional;
import java.util.OptionalInt;

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
            new ManifestRewriteOptions(
                specId == null
                    ? OptionalInt.empty()
                    : OptionalInt.of(ProcedureArguments.intValue(specId, "spec_id")),
                Optional.ofNullable(targetManifestSize).map(ByteSize::parse),
                ProcedureArguments.flag(dryRun)),
        (table, options, recorder) ->
            recorder
                .withDryRun(options.dryRun())
                .record(
                    MaintenanceOperation.REWRITE_MANIFESTS,
                    () -> new ManifestRewriter().rewrite(table, options)),
        RunOutcomes::manifests);
  }
}
