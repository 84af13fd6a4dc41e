package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.procedure.ProcedureArguments.SCHEMA_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.SYSTEM_SCHEMA;
import static dev.lakeops.trino.procedure.ProcedureArguments.TABLE_NAME;
import static dev.lakeops.trino.procedure.ProcedureArguments.optional;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;
import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import com.google.inject.Provider;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.runs.RunOperations;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.TimeInput;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import java.util.List;
import java.util.Locale;

/**
 * {@code CALL lakeops.system.remove_orphan_files(schema_name => 'db', table_name => 't', older_than
 * => '3d', location => '...', prefix_mismatch_mode => 'error', dry_run => false)}. A cutoff under
 * the 3-day safety floor is refused.
 */
public final class RemoveOrphanFilesProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;

  @Inject
  public RemoveOrphanFilesProcedure(TableProcedureRunner runner) {
    this.runner = requireNonNull(runner, "runner is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "remove_orphan_files",
        List.of(
            SCHEMA_NAME,
            TABLE_NAME,
            optional("OLDER_THAN", VARCHAR, null),
            optional("LOCATION", VARCHAR, null),
            optional("PREFIX_MISMATCH_MODE", VARCHAR, null),
            optional("DRY_RUN", BOOLEAN, false)),
        ProcedureArguments.handle(this, "removeOrphanFiles"));
  }

  public void removeOrphanFiles(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      String olderThan,
      String location,
      String prefixMismatchMode,
      Boolean dryRun) {
    runner.runRecorded(
        session,
        accessControl,
        TableAccess.WRITE,
        "remove_orphan_files",
        schemaName,
        tableName,
        () -> {
          OrphanRemovalOptions.Builder builder =
              OrphanRemovalOptions.builder().dryRun(ProcedureArguments.flag(dryRun));
          if (olderThan != null) {
            builder.olderThan(TimeInput.parseDuration(olderThan, "older_than"));
          }
          if (location != null) {
            builder.location(location);
          }
          if (prefixMismatchMode != null) {
            builder.prefixMismatchMode(parseMode(prefixMismatchMode));
          }
          return builder.build();
        },
        (table, options, recorder) ->
            recorder
                .withDryRun(options.dryRun())
                .record(
                    RunOperations.REMOVE_ORPHAN_FILES,
                    () -> new OrphanFileRemover().remove(table, options)),
        RunOutcomes::orphans);
  }

  private static PrefixMismatchMode parseMode(String text) {
    try {
      return PrefixMismatchMode.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid prefix_mismatch_mode '" + text + "': use error, ignore or delete", e);
    }
  }
}
