package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.MaintainCall;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.maintain(table => ..., skip_steps => array('orphans'), dry_run => true)}:
 * expire snapshots, remove orphan files, compact, rewrite manifests, each with its defaults,
 * through the core's {@link MaintainCall}. One result row per step.
 */
final class MaintainProcedure extends TableProcedure {
  static final String NAME = Operations.MAINTAIN.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("step", DataTypes.StringType, false),
            column("status", DataTypes.StringType, false),
            column("summary", DataTypes.StringType, true),
          });

  MaintainProcedure() {
    super(Operations.MAINTAIN);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    MaintainCall call = MaintainCall.bind(contractArguments(arguments, Operations.MAINTAIN));
    MaintenanceResult result = run(arguments, call, !call.dryRun());
    List<InternalRow> rows = new ArrayList<>();
    rows.add(row(MaintenanceStep.EXPIRE, result.expiry().map(MaintenanceReports::human)));
    rows.add(row(MaintenanceStep.ORPHANS, result.orphans().map(MaintenanceReports::human)));
    rows.add(row(MaintenanceStep.COMPACT, result.compaction().map(MaintenanceReports::human)));
    rows.add(row(MaintenanceStep.MANIFESTS, result.manifests().map(MaintenanceReports::human)));
    return ResultRowsScan.of(SCHEMA, rows, "lakeops.maintain result");
  }

  private static InternalRow row(MaintenanceStep step, Optional<String> summary) {
    return ResultRowsScan.row(
        step.displayName(), summary.isPresent() ? "done" : "skipped", summary.orElse(null));
  }
}
