package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.runs.RunOperations;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.expire_snapshots(table => ..., older_than => TIMESTAMP '...', retain_last =>
 * N, snapshot_ids => array(...), clean_expired_metadata => true)}: Iceberg's arguments and result
 * columns, run by the LakeOps core ({@link SnapshotExpirer}).
 */
final class ExpireSnapshotsProcedure extends TableProcedure {
  static final String NAME = "expire_snapshots";

  static final ProcedureParameter OLDER_THAN =
      optional(
          "older_than",
          DataTypes.TimestampType,
          "NULL",
          "expire snapshots older than this (default: table property, 5 days)");
  static final ProcedureParameter RETAIN_LAST =
      optional(
          "retain_last",
          DataTypes.IntegerType,
          "NULL",
          "keep at least this many ancestors of every branch");
  static final ProcedureParameter MAX_CONCURRENT_DELETES =
      optional(
          "max_concurrent_deletes",
          DataTypes.IntegerType,
          "NULL",
          "threads that read manifests and delete files");
  static final ProcedureParameter SNAPSHOT_IDS =
      optional(
          "snapshot_ids",
          DataTypes.createArrayType(DataTypes.LongType),
          "NULL",
          "expire exactly these snapshots too");
  static final ProcedureParameter CLEAN_EXPIRED_METADATA =
      optional(
          "clean_expired_metadata",
          DataTypes.BooleanType,
          "false",
          "also drop partition specs no snapshot uses");
  static final ProcedureParameter DRY_RUN =
      optional(
          "dry_run",
          DataTypes.BooleanType,
          "false",
          "report what would be expired, change nothing");

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
    super(
        NAME,
        "Expires snapshots and deletes the files only they reached, with the LakeOps engine on the driver",
        TABLE,
        OLDER_THAN,
        RETAIN_LAST,
        MAX_CONCURRENT_DELETES,
        SNAPSHOT_IDS,
        CLEAN_EXPIRED_METADATA,
        DRY_RUN);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    SnapshotExpiryOptions.Builder options =
        SnapshotExpiryOptions.builder()
            .snapshotIds(arguments.longs(SNAPSHOT_IDS))
            .cleanExpiredMetadata(arguments.booleanValue(CLEAN_EXPIRED_METADATA))
            .dryRun(arguments.booleanValue(DRY_RUN));
    arguments.timestamp(OLDER_THAN).ifPresent(options::olderThan);
    arguments
        .integer(RETAIN_LAST, 1, "every branch keeps at least its head; use 1 or more")
        .ifPresent(options::retainLast);
    arguments.integer(MAX_CONCURRENT_DELETES, 1, "use 1 or more").ifPresent(options::parallelism);
    SnapshotExpiryOptions expiry = options.build();
    SnapshotExpiryResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                !expiry.dryRun(),
                expiry.dryRun(),
                (loaded, recorder) ->
                    recorder.record(
                        RunOperations.EXPIRE_SNAPSHOTS,
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
