package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveOrphanFilesCall;
import java.util.Iterator;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.remove_orphan_files(table => ..., older_than => '5d', location => ...,
 * dry_run => true, prefix_mismatch_mode => 'error', equal_schemes => map(...), equal_authorities =>
 * map(...))}: the arguments of {@link Operations#REMOVE_ORPHAN_FILES} (Iceberg's, with {@code
 * older_than} also taking an age) and Iceberg's result column, run by the LakeOps core ({@link
 * RemoveOrphanFilesCall}). Files written less than 3 days ago are never candidates.
 */
final class RemoveOrphanFilesProcedure extends TableProcedure {
  static final String NAME = Operations.REMOVE_ORPHAN_FILES.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {column("orphan_file_location", DataTypes.StringType, false)});

  RemoveOrphanFilesProcedure() {
    super(Operations.REMOVE_ORPHAN_FILES);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    RemoveOrphanFilesCall call =
        RemoveOrphanFilesCall.bind(contractArguments(arguments, Operations.REMOVE_ORPHAN_FILES));
    OrphanRemovalResult result = run(arguments, call, false);
    return ResultRowsScan.of(
        SCHEMA,
        result.orphanFiles().stream().map(ResultRowsScan::row).toList(),
        "lakeops.remove_orphan_files result");
  }
}
