package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.procedure.ProcedureArguments.SCHEMA_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.SYSTEM_SCHEMA;
import static dev.lakeops.trino.procedure.ProcedureArguments.TABLE_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.optional;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import com.google.inject.Provider;
import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.runs.RunOperations;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.ByteSize;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code CALL lakeops.system.rewrite_manifests(schema_name => 'db', table_name => 't', spec_id =>
 * 0, target_manifest_size => '8MB', dry_run => false)}.
 */
public final class RewriteManifestsProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;

  @Inject
  public RewriteManifestsProcedure(TableProcedureRunner runner) {
    this.runner = requireNonNull(runner, "runner is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "rewrite_manifests",
        List.of(
            SCHEMA_NAME,
            TABLE_NAME,
            optional("SPEC_ID", BIGINT, null),
            optional("TARGET_MANIFEST_SIZE", VARCHAR, null),
            optional("DRY_RUN", BOOLEAN, false)),
        ProcedureArguments.handle(this, "rewriteManifests"));
  }

  public void rewriteManifests(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      Long specId,
      String targetManifestSize,
      Boolean dryRun) {
    runner.runRecorded(
        session,
        accessControl,
        TableAccess.WRITE,
        "rewrite_manifests",
        schemaName,
        tableName,
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
                    RunOperations.REWRITE_MANIFESTS,
                    () -> new ManifestRewriter().rewrite(table, options)),
        RunOutcomes::manifests);
  }
}
