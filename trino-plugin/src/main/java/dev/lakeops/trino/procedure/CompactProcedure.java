package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.operation.Operations;
import dev.lakeops.trino.connector.LakeOpsConfig;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.ByteSize;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code CALL lakeops.system.compact(schema_name => 'db', table_name => 't', strategy => 'binpack',
 * sort_order => '...', "where" => '...', options => MAP(...), zorder_columns => ARRAY[...],
 * memory_budget => '512MB', verify => 'checksum', dry_run => false, spill_directory => '/tmp')},
 * the arguments of {@link Operations#COMPACT}: rewrites small files with the LakeOps core, on the
 * coordinator. Without {@code memory_budget} and {@code spill_directory} the catalog's settings
 * apply.
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
      String spillDirectory) {
    CompactionResult result =
        runner.run(
            call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
            () ->
                CompactionRequest.builder()
                    .strategy(
                        Strategy.parse(
                            strategy == null ? Strategy.BINPACK.displayName() : strategy))
                    .sortOrder(sortOrder)
                    .where(where)
                    .options(ProcedureArguments.stringMap(options, "options"))
                    .zorderColumns(ProcedureArguments.stringList(zorderColumns, "zorder_columns"))
                    .memoryBudget(
                        ByteSize.parse(
                            memoryBudget == null ? config.getMemoryBudget() : memoryBudget))
                    .spillDirectory(
                        Path.of(
                            spillDirectory != null
                                ? spillDirectory
                                : config
                                    .getSpillDirectory()
                                    .orElse(System.getProperty("java.io.tmpdir"))))
                    .verify(verify)
                    .dryRun(ProcedureArguments.flag(dryRun))
                    .build(),
            (table, request, recorder) ->
                recorder
                    .withDryRun(request.dryRun())
                    .compact(
                        CompactionListener.NONE,
                        listener ->
                            new AdvisedCompactor(
                                    new TableCompactor(
                                        listener,
                                        LockOptions.defaults()
                                            .withLeaseStore(recorder.leaseStore())))
                                .compact(table, request)),
            RunOutcomes::compaction);
    requireNonNull(result, "result is null");
  }
}
