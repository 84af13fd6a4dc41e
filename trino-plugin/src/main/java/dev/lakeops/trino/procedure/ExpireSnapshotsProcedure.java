package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.ExpireSnapshotsCall;
import dev.lakeops.trino.run.RunOutcomes;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.type.TypeManager;
import java.util.List;

/**
 * {@code CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 't', older_than =>
 * '7d', retain_last => 5, max_concurrent_deletes => 4, snapshot_ids => ARRAY[...],
 * clean_expired_metadata => false, dry_run => false)}, the arguments of {@link
 * Operations#EXPIRE_SNAPSHOTS}. Without older_than and retain_last the table's own retention
 * properties apply.
 */
public final class ExpireSnapshotsProcedure extends ContractProcedure {
  private final TableProcedureRunner runner;

  @Inject
  public ExpireSnapshotsProcedure(TableProcedureRunner runner, TypeManager typeManager) {
    super(Operations.EXPIRE_SNAPSHOTS, "expireSnapshots", typeManager);
    this.runner = requireNonNull(runner, "runner is null");
  }

  public void expireSnapshots(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      String olderThan,
      Long retainLast,
      Long maxConcurrentDeletes,
      List<?> snapshotIds,
      Boolean cleanExpiredMetadata,
      Boolean dryRun) {
    runner.run(
        call(session, accessControl, TableAccess.WRITE, schemaName, tableName),
        () ->
            ExpireSnapshotsCall.bind(
                ProcedureArguments.given(session)
                    .with(Operations.OLDER_THAN, olderThan)
                    .with("retain_last", retainLast)
                    .with(Operations.MAX_CONCURRENT_DELETES, maxConcurrentDeletes)
                    .with("snapshot_ids", snapshotIds)
                    .with("clean_expired_metadata", cleanExpiredMetadata)
                    .with(Operations.DRY_RUN, dryRun)),
        ProcedureArguments::run,
        RunOutcomes::expiry);
  }
}
