package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.ExpireSnapshotsCall;
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
 * Iceberg's result columns, run by the LakeOps core ({@link ExpireSnapshotsCall}).
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
    ExpireSnapshotsCall call =
        ExpireSnapshotsCall.bind(contractArguments(arguments, Operations.EXPIRE_SNAPSHOTS));
    SnapshotExpiryResult result = run(arguments, call, !call.dryRun());
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
