package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * {@code expire_snapshots} bound to its options; left out, the table's retention properties apply.
 *
 * @param options what to expire
 */
public record ExpireSnapshotsCall(SnapshotExpiryOptions options)
    implements BoundOperation<SnapshotExpiryResult> {
  public ExpireSnapshotsCall {
    requireNonNull(options, "options is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static ExpireSnapshotsCall bind(OperationArguments arguments) {
    ArgumentReader reader = new ArgumentReader(Operations.EXPIRE_SNAPSHOTS, arguments);
    SnapshotExpiryOptions.Builder options =
        SnapshotExpiryOptions.builder()
            .snapshotIds(reader.longs("snapshot_ids"))
            .cleanExpiredMetadata(reader.flag("clean_expired_metadata"))
            .dryRun(reader.flag(Operations.DRY_RUN));
    reader.cutoff(Operations.OLDER_THAN).ifPresent(options::olderThan);
    reader
        .integer("retain_last", 1, "every branch keeps at least its head; use 1 or more")
        .ifPresent(options::retainLast);
    reader
        .integer(Operations.MAX_CONCURRENT_DELETES, 1, "use 1 or more")
        .ifPresent(options::parallelism);
    return new ExpireSnapshotsCall(options.build());
  }

  @Override
  public Operation operation() {
    return Operations.EXPIRE_SNAPSHOTS;
  }

  @Override
  public boolean dryRun() {
    return options.dryRun();
  }

  @Override
  public MeasuredRun<SnapshotExpiryResult> run(Table table, RunSettings settings) {
    return settings
        .recorder()
        .withDryRun(options.dryRun())
        .recordMeasured(
            MaintenanceOperation.EXPIRE_SNAPSHOTS,
            () -> new SnapshotExpirer().expire(table, options));
  }
}
