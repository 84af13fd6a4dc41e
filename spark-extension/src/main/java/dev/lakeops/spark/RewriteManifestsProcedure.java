package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewriteManifestsCall;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.rewrite_manifests(table => ..., spec_id => N)}: the arguments of {@link
 * Operations#REWRITE_MANIFESTS} and Iceberg's result columns, run by the LakeOps core ({@link
 * RewriteManifestsCall}).
 */
final class RewriteManifestsProcedure extends TableProcedure {
  static final String NAME = Operations.REWRITE_MANIFESTS.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("rewritten_manifests_count", DataTypes.IntegerType, false),
            column("added_manifests_count", DataTypes.IntegerType, false),
            column("snapshot_id", DataTypes.LongType, true),
          });

  RewriteManifestsProcedure() {
    super(Operations.REWRITE_MANIFESTS);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    RewriteManifestsCall call =
        RewriteManifestsCall.bind(contractArguments(arguments, Operations.REWRITE_MANIFESTS));
    ManifestRewriteResult result = run(arguments, call, !call.dryRun());
    return ResultRowsScan.of(
        SCHEMA,
        List.of(
            ResultRowsScan.row(
                result.rewrittenManifests(),
                result.addedManifests(),
                result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null)),
        "lakeops.rewrite_manifests result");
  }
}
