package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.runs.RunOperations;
import dev.lakeops.unit.ByteSize;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalInt;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.rewrite_manifests(table => ..., spec_id => N)}: Iceberg's arguments and
 * result columns, run by the LakeOps core ({@link ManifestRewriter}).
 */
final class RewriteManifestsProcedure extends TableProcedure {
  static final String NAME = "rewrite_manifests";

  static final ProcedureParameter SPEC_ID =
      optional(
          "spec_id", DataTypes.IntegerType, "NULL", "only data manifests of this partition spec");
  static final ProcedureParameter TARGET_MANIFEST_SIZE =
      optional(
          "target_manifest_size",
          DataTypes.StringType,
          "NULL",
          "e.g. 8MB (default: the table's commit.manifest.target-size-bytes)");
  static final ProcedureParameter DRY_RUN =
      optional(
          "dry_run",
          DataTypes.BooleanType,
          "false",
          "report the manifests to rewrite, change nothing");

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("rewritten_manifests_count", DataTypes.IntegerType, false),
            column("added_manifests_count", DataTypes.IntegerType, false),
            column("snapshot_id", DataTypes.LongType, true),
          });

  RewriteManifestsProcedure() {
    super(
        NAME,
        "Rewrites a table's manifests into target-sized ones, with the LakeOps engine on the driver",
        TABLE,
        SPEC_ID,
        TARGET_MANIFEST_SIZE,
        DRY_RUN);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    String table = arguments.requiredString(TABLE);
    OptionalInt specId = arguments.integer(SPEC_ID, 0, "partition spec ids start at 0");
    ManifestRewriteOptions options =
        new ManifestRewriteOptions(
            specId,
            arguments.parsed(TARGET_MANIFEST_SIZE, ByteSize::parse),
            arguments.booleanValue(DRY_RUN));
    ManifestRewriteResult result =
        SessionTableRunner.forActiveSession()
            .run(
                table,
                !options.dryRun(),
                options.dryRun(),
                (loaded, recorder) ->
                    recorder.record(
                        RunOperations.REWRITE_MANIFESTS,
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
