package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operations;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.expire_snapshots(table => ..., older_than => '7d', retain_last => N,
 * snapshot_ids => array(...), clean_expired_metadata => true)}: the arguments of {@link
 * Operations#EXPIRE_SNAPSHOTS} (Iceberg's, with {@code older_than} also taking an age) and
 * Iceberg's result columns, run by the LakeOps core ({@link SnapshotExpirer}).
 */
final class ExpireSnapshotsProcedure extends TableProcedure {
  static final String NAME = Operations.EXPIRE_SNAPSHOTS.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("deleted_data_files_count", DataTypes.LongType, false),
            column("deleted_position_delete_files_count", DataTypes.LongType, true),
            column("deleted_equality_delete_files_count", DataTypes.LongType, true),
            column("deleted_manifest_files_count", DataTypes.LongType, false),
            column("deleted_manifest_lists_count", DataTypes.LongType, false),
            column("deleted_statistics_files_count", DataTypes.LongType, false),
            column("expired_snapshots_count", DataTypes.LongType, false),
            column("retained_snapshots_count", DataTypes.LongType, false),
            column("failed_deletes_count", DataTypes.LongType, false),
          });

  ExpireSnapshotsProcedure() {
    super(Operations.EXPIRE_SNAPSHOTS);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    SnapshotExpiryOptions.Builder options =
        SnapshotExpiryOptions.builder()
            .snapshotIds(arguments.longs("snapshot_ids"))
            .cleanExpiredMetadata(arguments.booleanValue("clean_expired_metadata"))
            .dryRun(arguments.booleanValue(Operations.DRY_RUN));
    arguments
        .cutoff(Operations.OLDER_THAN, Instant.now(), SessionTableRunner.sessionTimeZone())
        .ifPresent(options::olderThan);
    arguments
        .integer("retain_last", 1, "every branch keeps at least its head; use 1 or more")
        .ifPresent(options::retainLast);
    arguments
        .integer(Operations.MAX_CONCURRENT_DELETES, 1, "use 1 or more")
        .ifPresent(options::parallelism);
    SnapshotExpiryOptions expiry = options.build();
    SnapshotExpiryResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                !expiry.dryRun(),
                expiry.dryRun(),
                (loaded, recorder) ->
                    recorder.record(
                        MaintenanceOperation.EXPIRE_SNAPSHOTS,
                        () -> new SnapshotExpirer().expire(loaded, expiry)));
    return ResultRowsScan.of(
        SCHEMA,
        List.of(
            ResultRowsScan.row(
                result.deletedDataFiles(),
                result.deletedPositionDeleteFiles(),
                result.deletedEqualityDeleteFiles(),
                result.deletedManifests(),
                result.deletedManifestLists(),
                result.deletedStatisticsFiles(),
                (long) result.expiredSnapshotIds().size(),
                (long) result.retainedSnapshots(),
                result.failedDeletes())),
        "lakeops.expire_snapshots result");
  }
}
