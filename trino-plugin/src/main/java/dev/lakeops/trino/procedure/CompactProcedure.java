package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.CompactCall;
import dev.lakeops.trino.connector.LakeOpsConfig;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL lakeops.system.compact(schema_name => 'db', table_name => 't', strategy => 'binpack',
 * sort_order => '...', "where" => '...', options => MAP(...), zorder_columns => ARRAY[...],
 * memory_budget => '512MB', verify => 'checksum', dry_run => false, spill_directory => '/tmp',
 * target_file_size => '512MB')}, the arguments of {@link Operations#COMPACT}: rewrites small files
 * with the LakeOps core, on the coordinator. Without {@code memory_budget} and {@code
 * spill_directory} the catalog's settings apply.
 */
public final class CompactProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;
  private final LakeOpsConfig config;

  @Inject
  public CompactProcedure(
      TableProcedureRunner runner, LakeOpsConfig config, TypeManager typeManager) {
    super(Operations.COMPACT, "compact", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
    this.config = requireNonNull(config, "config is null");
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
      String verify,
      Boolean dryRun,
      String spillDirectory,
      String targetFileSize) {
    CompactionResult result =
        runner.run(
            call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
            () ->
                CompactCall.bind(
                    ProcedureArguments.given(session)
                        .with("strategy", strategy)
                        .with("sort_order", sortOrder)
                        .with("where", where)
                        .with("options", options)
                        .with("zorder_columns", zorderColumns)
                        .with(
                            Operations.MEMORY_BUDGET,
                            memoryBudget != null ? memoryBudget : config.getMemoryBudget())
                        .with(Operations.VERIFY, verify)
                        .with(Operations.DRY_RUN, dryRun)
                        .with(
                            "spill_directory",
                            spillDirectory != null
                                ? spillDirectory
                                : config.getSpillDirectory().orElse(null))
                        .with(Operations.TARGET_FILE_SIZE, targetFileSize)),
            ProcedureArguments::run,
            RunOutcomes::compaction);
    requireNonNull(result, "result is null");
  }
}
