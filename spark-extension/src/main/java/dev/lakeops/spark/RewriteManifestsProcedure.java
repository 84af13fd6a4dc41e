package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operations;
import dev.lakeops.unit.ByteSize;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalInt;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.rewrite_manifests(table => ..., spec_id => N)}: the arguments of {@link
 * Operations#REWRITE_MANIFESTS} and Iceberg's result columns, run by the LakeOps core ({@link
 * ManifestRewriter}).
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
    String table = arguments.requiredString(TABLE);
    OptionalInt specId = arguments.integer("spec_id", 0, "partition spec ids start at 0");
    ManifestRewriteOptions options =
        new ManifestRewriteOptions(
            specId,
            arguments.parsed("target_manifest_size", ByteSize::parse),
            arguments.booleanValue(Operations.DRY_RUN));
    ManifestRewriteResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                !options.dryRun(),
                options.dryRun(),
                (loaded, recorder) ->
                    recorder.record(
                        MaintenanceOperation.REWRITE_MANIFESTS,
                        () -> new ManifestRewriter().rewrite(loaded, options)));
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
