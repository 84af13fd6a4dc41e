package dev.lakeops.spark;

import static dev.lakeops.spark.ResultRowsScan.column;

import dev.lakeops.health.TableHealth;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.HealthCall;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lakeops.health(table => ...)}: the layout signals of the table's current snapshot,
 * read from metadata only ({@link HealthCall}); changes nothing.
 */
final class HealthProcedure extends TableProcedure {
  static final String NAME = Operations.HEALTH.name();

  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("data_files_count", DataTypes.LongType, false),
            column("data_bytes", DataTypes.LongType, false),
            column("average_file_bytes", DataTypes.LongType, false),
            column("small_data_files_count", DataTypes.LongType, false),
            column("small_file_ratio", DataTypes.DoubleType, false),
            column("target_file_size_bytes", DataTypes.LongType, false),
            column("position_delete_files_count", DataTypes.LongType, false),
            column("equality_delete_files_count", DataTypes.LongType, false),
            column("partitions_count", DataTypes.LongType, false),
            column("snapshots_count", DataTypes.LongType, false),
            column("records_count", DataTypes.LongType, false),
          });

  HealthProcedure() {
    super(Operations.HEALTH);
  }

  @Override
  Iterator<Scan> call(ProcedureArguments arguments) {
    TableHealth health =
        run(arguments, HealthCall.bind(contractArguments(arguments, Operations.HEALTH)), false);
    return ResultRowsScan.of(
        SCHEMA,
        List.of(
            ResultRowsScan.row(
                health.dataFiles(),
                health.dataBytes(),
                health.averageFileBytes(),
                health.smallDataFiles(),
                health.smallFileRatio(),
                health.targetFileSizeBytes(),
                health.positionDeleteFiles(),
                health.equalityDeleteFiles(),
                health.partitions(),
                health.snapshots(),
                health.records())),
        "lakeops.health result");
  }
}
