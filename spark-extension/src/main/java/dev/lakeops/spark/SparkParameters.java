package dev.lakeops.spark;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * The Spark parameters of an operation of the procedure contract: {@code table} first, then the
 * contract's arguments in order, then the deprecated aliases Spark still accepts. Every parameter
 * but {@code table} is optional; a boolean defaults to its contract default, the rest to NULL (the
 * procedure applies the contract's default, so that an alias can be told apart).
 */
final class SparkParameters {
  static final ProcedureParameter TABLE =
      ProcedureParameter.in("table", DataTypes.StringType).build();

  private SparkParameters() {}

  static ProcedureParameter[] of(Operation operation) {
    List<ProcedureParameter> parameters = new ArrayList<>();
    parameters.add(TABLE);
    List<OperationArgument> arguments = operation.arguments(Host.SPARK);
    for (OperationArgument argument : arguments) {
      parameters.add(
          ProcedureParameter.in(argument.name(), type(argument.type()))
              .defaultValue(
                  argument.type() == ArgumentType.BOOLEAN
                      ? argument.defaultValue().orElse("false")
                      : "NULL")
              .comment(
                  argument.description()
                      + argument.defaultValue().map(text -> " (default: " + text + ")").orElse(""))
              .build());
    }
    for (OperationArgument argument : arguments) {
      for (ArgumentAlias alias : argument.aliasesOn(Host.SPARK)) {
        parameters.add(
            ProcedureParameter.in(alias.name(), type(alias.type()))
                .defaultValue("NULL")
                .comment("deprecated: use " + argument.name())
                .build());
      }
    }
    return parameters.toArray(ProcedureParameter[]::new);
  }

  /** Spark's type for a kind of argument value. */
  static DataType type(ArgumentType type) {
    return switch (type) {
      case TEXT, SIZE, CUTOFF -> DataTypes.StringType;
      case BOOLEAN -> DataTypes.BooleanType;
      case INTEGER -> DataTypes.IntegerType;
      case TEXT_LIST -> DataTypes.createArrayType(DataTypes.StringType);
      case LONG_LIST -> DataTypes.createArrayType(DataTypes.LongType);
      case TEXT_MAP -> DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType);
    };
  }
}
