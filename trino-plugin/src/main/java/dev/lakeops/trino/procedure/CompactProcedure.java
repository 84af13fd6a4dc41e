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
import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.trino.connector.LakeOpsConfig;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.ByteSize;
import io.airlift.slice.Slices;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.procedure.Procedure.Argument;
import io.trino.spi.type.TypeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL lakeops.system.compact(schema_name => 'db', table_name => 't', strategy => 'binpack',
 * sort_order => '...', "where" => '...', options => MAP(...), zorder_columns => ARRAY[...],
 * memory_budget => '512MB', dry_run => false)}: rewrites small files with the LakeOps core, on the
 * coordinator.
 */
public final class CompactProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;
  private final LakeOpsConfig config;
  private final TypeManager typeManager;

  @Inject
  public CompactProcedure(
      TableProcedureRunner runner, LakeOpsConfig config, TypeManager typeManager) {
    this.runner = requireNonNull(runner, "runner is null");
    this.config = requireNonNull(config, "config is null");
    this.typeManager = requireNonNull(typeManager, "typeManager is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "compact",
        List.of(
            SCHEMA_NAME,
            TABLE_NAME,
            optional("STRATEGY", VARCHAR, Slices.utf8Slice(Strategy.BINPACK.displayName())),
            optional("SORT_ORDER", VARCHAR, null),
            // WHERE is a reserved word: callers quote it, "where" => '...', so the name is case
            // sensitive
            new Argument("where", true, VARCHAR, false, null),
            optional("OPTIONS", ProcedureArguments.varcharMap(typeManager), null),
            optional("ZORDER_COLUMNS", ProcedureArguments.varcharArray(), null),
            optional("MEMORY_BUDGET", VARCHAR, null),
            optional("DRY_RUN", BOOLEAN, false)),
        ProcedureArguments.handle(this, "compact"));
  }

  public void compact(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      String strategy,
      String sortOrder,
      String where,
      Map<?, ?> options,
      List<?> zorderColumns,
      String memoryBudget,
      Boolean dryRun) {
    CompactionResult result =
        runner.runRecorded(
            session,
            accessControl,
            TableAccess.WRITE,
            "compact",
            schemaName,
            tableName,
            () ->
                CompactionRequest.builder()
                    .strategy(
                        Strategy.parse(
                            strategy == null ? Strategy.BINPACK.displayName() : strategy))
                    .sortOrder(sortOrder)
                    .where(where)
                    .options(ProcedureArguments.stringMap(options, "options"))
                    .zorderColumns(ProcedureArguments.stringList(zorderColumns))
                    .memoryBudget(
                        ByteSize.parse(
                            memoryBudget == null ? config.getMemoryBudget() : memoryBudget))
                    .spillDirectory(
                        Path.of(
                            config
                                .getSpillDirectory()
                                .orElse(System.getProperty("java.io.tmpdir"))))
                    .dryRun(ProcedureArguments.flag(dryRun))
                    .build(),
            (table, request, recorder) ->
                recorder
                    .withDryRun(request.dryRun())
                    .compact(
                        CompactionListener.NONE,
                        listener ->
                            new AdvisedCompactor(new TableCompactor(listener))
                                .compact(table, request)),
            RunOutcomes::compaction);
    requireNonNull(result, "result is null");
  }
}
