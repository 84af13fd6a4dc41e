package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** The rows a procedure returns, held on the driver. */
final class ResultRowsScan implements LocalScan {
  private final StructType schema;
  private final List<InternalRow> rows;
  private final String description;

  private ResultRowsScan(StructType schema, List<InternalRow> rows, String description) {
    this.schema = requireNonNull(schema, "schema is null");
    this.rows = List.copyOf(requireNonNull(rows, "rows is null"));
    this.description = requireNonNull(description, "description is null");
  }

  static Iterator<Scan> of(StructType schema, List<InternalRow> rows, String description) {
    return List.<Scan>of(new ResultRowsScan(schema, rows, description)).iterator();
  }

  /** A row of Java values: strings become Spark strings, everything else is stored as given. */
  static InternalRow row(Object... values) {
    Object[] converted = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      converted[i] = values[i] instanceof String text ? UTF8String.fromString(text) : values[i];
    }
    return new GenericInternalRow(converted);
  }

  static StructField column(String name, DataType type, boolean nullable) {
    return new StructField(name, type, nullable, Metadata.empty());
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public InternalRow[] rows() {
    return rows.toArray(InternalRow[]::new);
  }

  @Override
  public String description() {
    return description;
  }
}
