package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.runs.RunFields;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The one-row answer of {@code lakeops.compact}. Column names follow Iceberg's {@code
 * rewrite_data_files} where they overlap, so dashboards built on it keep working; what the run cost
 * follows under the CLI's names.
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
            column(
                "object_requests",
                DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, false),
                false),
            column("object_bytes_read", DataTypes.LongType, false),
            column("object_bytes_written", DataTypes.LongType, false),
            column("requests_in_flight_peak", DataTypes.LongType, false),
            column("requests_in_flight_mean", DataTypes.DoubleType, false),
            column("cpu_seconds", DataTypes.DoubleType, false),
            column("verification", DataTypes.StringType, false),
            column("verified_rows", DataTypes.LongType, false),
          });

  private final InternalRow row;

  private CompactResultScan(InternalRow row) {
    this.row = requireNonNull(row, "row is null");
  }

  static Iterator<Scan> of(CompactionResult result) {
    return List.<Scan>of(new CompactResultScan(toRow(result))).iterator();
  }

  /**
   * The result's shared fields ({@link RunFields#compaction}) under the column names of Iceberg's
   * {@code rewrite_data_files}, converted to the schema's Spark types.
   */
  static InternalRow toRow(CompactionResult result) {
    Map<String, Object> fields = RunFields.compaction(result);
    StructField[] columns = SCHEMA.fields();
    Object[] values = new Object[columns.length];
    for (int index = 0; index < columns.length; index++) {
      String field = RunFields.fieldOfIcebergColumn(columns[index].name());
      if (!fields.containsKey(field)) {
        throw new IllegalStateException(
            "No result field " + field + " for column " + columns[index].name());
      }
      values[index] = sparkValue(fields.get(field), columns[index].dataType());
    }
    return new GenericInternalRow(values);
  }

  private static Object sparkValue(Object value, DataType type) {
    if (value == null) {
      return null;
    }
    if (type.equals(DataTypes.IntegerType)) {
      return ((Number) value).intValue();
    }
    if (type.equals(DataTypes.LongType)) {
      return ((Number) value).longValue();
    }
    if (type.equals(DataTypes.DoubleType)) {
      return ((Number) value).doubleValue();
    }
    if (type.equals(DataTypes.StringType)) {
      return UTF8String.fromString(value.toString());
    }
    if (type instanceof MapType mapType && value instanceof Map<?, ?> map) {
      Object[] keys = new Object[map.size()];
      Object[] values = new Object[map.size()];
      int index = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        keys[index] = sparkValue(entry.getKey(), mapType.keyType());
        values[index] = sparkValue(entry.getValue(), mapType.valueType());
        index++;
      }
      return new ArrayBasedMapData(new GenericArrayData(keys), new GenericArrayData(values));
    }
    return value;
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
