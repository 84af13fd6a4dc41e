package dev.lakeops.trino.procedure;

import static io.trino.spi.type.VarcharType.VARCHAR;

import io.trino.spi.procedure.Procedure.Argument;
import io.trino.spi.type.ArrayType;
import io.trino.spi.type.MapType;
import io.trino.spi.type.Type;
import io.trino.spi.type.TypeManager;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Argument declarations shared by the procedures, and the conversions of their values. */
final class ProcedureArguments {
  static final String SYSTEM_SCHEMA = "system";
  static final Argument SCHEMA_NAME = new Argument("SCHEMA_NAME", VARCHAR);
  static final Argument TABLE_NAME = new Argument("TABLE_NAME", VARCHAR);

  private ProcedureArguments() {}

  static Argument optional(String name, Type type, Object defaultValue) {
    return new Argument(name, type, false, defaultValue);
  }

  static Type varcharArray() {
    return new ArrayType(VARCHAR);
  }

  static Type varcharMap(TypeManager typeManager) {
    return new MapType(VARCHAR, VARCHAR, typeManager.getTypeOperators());
  }

  static boolean flag(Boolean value) {
    return value != null && value;
  }

  /** A MAP(VARCHAR, VARCHAR) value as Java sees it, with NULL as empty. */
  static Map<String, String> stringMap(Map<?, ?> value, String argument) {
    Map<String, String> values = new LinkedHashMap<>();
    if (value != null) {
      value.forEach(
          (key, entry) ->
              values.put(
                  String.valueOf(ProcedureErrors.required(key, argument + " key")),
                  String.valueOf(
                      ProcedureErrors.required(entry, argument + " value for key " + key))));
    }
    return values;
  }

  /** A BIGINT argument the core takes as an int; beyond int's range it names the argument. */
  static int intValue(long value, String argument) {
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          argument + " = " + value + " is out of range: use at most " + Integer.MAX_VALUE);
    }
    return (int) value;
  }

  /** An ARRAY value as Java sees it, NULL elements dropped, NULL as empty. */
  static List<String> stringList(List<?> value) {
    return value == null
        ? List.of()
        : value.stream().filter(Objects::nonNull).map(String::valueOf).toList();
  }

  static List<Long> longList(List<?> value) {
    return value == null
        ? List.of()
        : value.stream().filter(Objects::nonNull).map(item -> ((Number) item).longValue()).toList();
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
