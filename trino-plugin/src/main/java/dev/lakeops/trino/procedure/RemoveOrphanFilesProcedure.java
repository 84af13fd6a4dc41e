package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operations;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.time.Instant;
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
        () -> {
          OrphanRemovalOptions.Builder builder =
              OrphanRemovalOptions.builder()
                  .location(location)
                  .dryRun(ProcedureArguments.flag(dryRun))
                  .equalAuthorities(
                      ProcedureArguments.stringMap(equalAuthorities, "equal_authorities"));
          if (olderThan != null) {
            Instant now = Instant.now();
            builder.olderThan(
                OrphanRemovalOptions.ageOf(
                    ProcedureArguments.cutoff(olderThan, now, session, Operations.OLDER_THAN),
                    now,
                    Operations.OLDER_THAN));
          }
          if (maxConcurrentDeletes != null) {
            builder.parallelism(
                ProcedureArguments.intValue(
                    maxConcurrentDeletes, Operations.MAX_CONCURRENT_DELETES));
          }
          Map<String, String> schemes = ProcedureArguments.stringMap(equalSchemes, "equal_schemes");
          if (!schemes.isEmpty()) {
            builder.equalSchemes(schemes);
          }
          if (prefixMismatchMode != null) {
            builder.prefixMismatchMode(PrefixMismatchMode.parse(prefixMismatchMode));
          }
          return builder.build();
        },
        (table, options, recorder) ->
            recorder
                .withDryRun(options.dryRun())
                .record(
                    MaintenanceOperation.REMOVE_ORPHAN_FILES,
                    () -> new OrphanFileRemover().remove(table, options)),
        RunOutcomes::orphans);
  }
}
