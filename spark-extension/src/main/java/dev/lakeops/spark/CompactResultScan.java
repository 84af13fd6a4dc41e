package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The one-row answer of {@code lakeops.compact}. Column names follow Iceberg's {@code
 * rewrite_data_files} where they overlap, so dashboards built on it keep working.
 */
final class CompactResultScan implements LocalScan {
  static final StructType SCHEMA =
      new StructType(
          new StructField[] {
            column("rewritten_data_files_count", DataTypes.IntegerType, false),
            column("added_data_files_count", DataTypes.IntegerType, false),
            column("rewritten_bytes_count", DataTypes.LongType, false),
            column("failed_data_files_count", DataTypes.IntegerType, false),
            column("removed_delete_files_count", DataTypes.IntegerType, false),
            column("snapshot_id", DataTypes.LongType, true),
            column("seconds", DataTypes.DoubleType, false),
            column("peak_memory_bytes", DataTypes.LongType, false),
            column("strategy", DataTypes.StringType, false),
            column("strategy_reason", DataTypes.StringType, true),
          });

  private final InternalRow row;

  private CompactResultScan(InternalRow row) {
    this.row = requireNonNull(row, "row is null");
  }

  static Iterator<Scan> of(CompactionResult result) {
    return List.<Scan>of(new CompactResultScan(toRow(result))).iterator();
  }

  static InternalRow toRow(CompactionResult result) {
    return new GenericInternalRow(
        new Object[] {
          result.inputFiles(),
          result.outputFiles(),
          result.inputBytes(),
          // The core commits all file groups or none: a failure is an exception, not a count.
          0,
          result.removedDeleteFiles(),
          result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null,
          result.elapsed().toNanos() / 1e9,
          result.peakMemoryBytes(),
          UTF8String.fromString(result.strategy()),
          result.strategyReason().isEmpty() ? null : UTF8String.fromString(result.strategyReason()),
        });
  }

  @Override
  public StructType readSchema() {
    return SCHEMA;
  }

  @Override
  public InternalRow[] rows() {
    return new InternalRow[] {row};
  }

  @Override
  public String description() {
    return "lakeops.compact result";
  }

  private static StructField column(String name, DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Metadata.empty());
  }
}
