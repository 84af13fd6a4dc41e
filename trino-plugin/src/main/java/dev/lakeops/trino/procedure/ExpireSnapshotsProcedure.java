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
import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.runs.RunOperations;
import dev.lakeops.trino.run.RunOutcomes;
import dev.lakeops.unit.TimeInput;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.type.ArrayType;
import java.time.Instant;
import java.util.List;

/**
 * {@code CALL lakeops.system.expire_snapshots(schema_name => 'db', table_name => 't', older_than =>
 * '7d', retain_last => 5, snapshot_ids => ARRAY[...], clean_expired_metadata => false, dry_run =>
 * false)}. Without older_than and retain_last the table's own retention properties apply.
 */
public final class ExpireSnapshotsProcedure implements Provider<Procedure> {
  private final TableProcedureRunner runner;

  @Inject
  public ExpireSnapshotsProcedure(TableProcedureRunner runner) {
    this.runner = requireNonNull(runner, "runner is null");
  }

  @Override
  public Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        "expire_snapshots",
        List.of(
            SCHEMA_NAME,
            TABLE_NAME,
            optional("OLDER_THAN", VARCHAR, null),
            optional("RETAIN_LAST", BIGINT, null),
            optional("SNAPSHOT_IDS", new ArrayType(BIGINT), null),
            optional("CLEAN_EXPIRED_METADATA", BOOLEAN, false),
            optional("DRY_RUN", BOOLEAN, false)),
        ProcedureArguments.handle(this, "expireSnapshots"));
  }

  public void expireSnapshots(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      String schemaName,
      String tableName,
      String olderThan,
      Long retainLast,
      List<?> snapshotIds,
      Boolean cleanExpiredMetadata,
      Boolean dryRun) {
    runner.runRecorded(
        session,
        accessControl,
        TableAccess.WRITE,
        "expire_snapshots",
        schemaName,
        tableName,
        () -> {
          SnapshotExpiryOptions.Builder builder =
              SnapshotExpiryOptions.builder()
                  .snapshotIds(ProcedureArguments.longList(snapshotIds))
                  .cleanExpiredMetadata(ProcedureArguments.flag(cleanExpiredMetadata))
                  .dryRun(ProcedureArguments.flag(dryRun));
          if (olderThan != null) {
            builder.olderThan(TimeInput.parseCutoff(olderThan, Instant.now(), "older_than"));
          }
          if (retainLast != null) {
            builder.retainLast(ProcedureArguments.intValue(retainLast, "retain_last"));
          }
          return builder.build();
        },
        (table, options, recorder) ->
            recorder
                .withDryRun(options.dryRun())
                .record(
                    RunOperations.EXPIRE_SNAPSHOTS,
                    () -> new SnapshotExpirer().expire(table, options)),
        RunOutcomes::expiry);
  }
}
