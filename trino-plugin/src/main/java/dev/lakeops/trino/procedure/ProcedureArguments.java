package dev.lakeops.trino.procedure;

import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.BooleanType.BOOLEAN;
import static io.trino.spi.type.VarcharType.VARCHAR;

import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.call.BoundOperation;
import dev.lakeops.operation.call.RunSettings;
import dev.lakeops.runs.RunRecorder;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure.Argument;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * The Trino arguments of an operation of the procedure contract, and the conversions of their
 * values. Trino reserves {@code table}: the table is {@code schema_name} and {@code table_name},
 * then come the contract's arguments in order; {@code where} is a reserved word too, so callers
 * quote it ({@code "where" => '...'}).
 */
final class ProcedureArguments {
  static final String SYSTEM_SCHEMA = "system";
  static final Argument SCHEMA_NAME = new Argument("SCHEMA_NAME", VARCHAR);
  static final Argument TABLE_NAME = new Argument("TABLE_NAME", VARCHAR);

  private static final Set<String> RESERVED_WORDS = Set.of("where");

  private ProcedureArguments() {}

  /**
   * {@code schema_name}, {@code table_name} and the contract's arguments of {@code operation}; a
   * boolean defaults to its contract default, the rest to NULL (the procedure applies the
   * contract's default).
   */
  static List<Argument> of(Operation operation, TypeManager typeManager) {
    List<Argument> arguments = new ArrayList<>(List.of(SCHEMA_NAME, TABLE_NAME));
    for (OperationArgument argument : operation.arguments(Host.TRINO)) {
      Type type = type(argument.type(), typeManager);
      Object defaultValue =
          argument.type() == ArgumentType.BOOLEAN
              ? Boolean.valueOf(argument.defaultValue().orElse("false"))
              : null;
      arguments.add(
          RESERVED_WORDS.contains(argument.name())
              ? new Argument(argument.name(), true, type, false, defaultValue)
              : new Argument(argument.name().toUpperCase(Locale.ROOT), type, false, defaultValue));
    }
    return List.copyOf(arguments);
  }

  /** Trino's type for a kind of argument value: procedures take no INTEGER or TIMESTAMP. */
  static Type type(ArgumentType type, TypeManager typeManager) {
    return switch (type) {
      case TEXT, SIZE, CUTOFF -> VARCHAR;
      case BOOLEAN -> BOOLEAN;
      case INTEGER -> BIGINT;
      case TEXT_LIST -> new ArrayType(VARCHAR);
      case LONG_LIST -> new ArrayType(BIGINT);
      case TEXT_MAP -> new MapType(VARCHAR, VARCHAR, typeManager.getTypeOperators());
    };
  }

  /**
   * No contract arguments yet, from a Trino CALL: ages count back from now, timestamps without
   * offset are read in the session's time zone.
   */
  static OperationArguments given(ConnectorSession session) {
    return OperationArguments.on(Host.TRINO)
        .at(Instant.now(), session.getTimeZoneKey().getZoneId());
  }

  /** Runs a bound operation on the coordinator, recorded by {@code recorder}. */
  static <T> T run(Table table, BoundOperation<T> call, RunRecorder recorder) {
    return call.run(table, RunSettings.recordedBy(recorder)).result();
  }

  /** The one public method of that name, as a handle bound to the procedure instance. */
  static MethodHandle handle(Object procedure, String methodName) {
    Method method =
        Arrays.stream(procedure.getClass().getMethods())
            .filter(candidate -> candidate.getName().equals(methodName))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "No method " + methodName + " in " + procedure.getClass()));
    try {
      return MethodHandles.lookup().unreflect(method).bindTo(procedure);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
