package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * What the maintenance procedures share: a name, a description, declared parameters (the first is
 * always {@code table}), and a call that reads them through {@link ProcedureArguments}.
 */
abstract class TableProcedure implements UnboundProcedure, BoundProcedure {
  static final ProcedureParameter TABLE =
      ProcedureParameter.in("table", DataTypes.StringType).build();

  private final String name;
  private final String description;
  private final ProcedureParameter[] parameters;

  TableProcedure(String name, String description, ProcedureParameter... parameters) {
    this.name = requireNonNull(name, "name is null");
    this.description = requireNonNull(description, "description is null");
    this.parameters = parameters.clone();
  }

  /** Runs the procedure with its arguments; bad input is an {@link IllegalArgumentException}. */
  abstract Iterator<Scan> call(ProcedureArguments arguments);

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public final ProcedureParameter[] parameters() {
    return parameters.clone();
  }

  @Override
  public final boolean isDeterministic() {
    return false;
  }

  @Override
  public final Iterator<Scan> call(InternalRow input) {
    return call(new ProcedureArguments(parameters, input));
  }

  static ProcedureParameter optional(
      String name, DataType type, String defaultSql, String comment) {
    return ProcedureParameter.in(name, type).defaultValue(defaultSql).comment(comment).build();
  }
}
