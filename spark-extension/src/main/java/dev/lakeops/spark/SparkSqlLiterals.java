package dev.lakeops.spark;

import dev.lakeops.operation.ArgumentType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Spark SQL literals for the {@code CALL} statements {@link JobCommand} writes. */
final class SparkSqlLiterals {
  private SparkSqlLiterals() {}

  /** A string literal; backslashes and quotes escaped as Spark SQL reads them. */
  static String string(String value) {
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }

  /** The literal of {@code value}, a flag's value for an argument of kind {@code type}. */
  static String of(ArgumentType type, Object value) {
    return switch (type) {
      case BOOLEAN, INTEGER -> String.valueOf(value);
      case TEXT, SIZE, CUTOFF -> string(String.valueOf(value));
      case TEXT_LIST ->
          "array("
              + String.join(
                  ", ",
                  ((List<?>) value)
                      .stream().map(String::valueOf).map(SparkSqlLiterals::string).toList())
              + ")";
      case LONG_LIST ->
          "array("
              + String.join(", ", ((List<?>) value).stream().map(id -> id + "L").toList())
              + ")";
      case TEXT_MAP -> map((Map<?, ?>) value);
    };
  }

  private static String map(Map<?, ?> entries) {
    List<String> parts = new ArrayList<>();
    entries.forEach(
        (key, value) ->
            parts.add(string(String.valueOf(key)) + ", " + string(String.valueOf(value))));
    return "map(" + String.join(", ", parts) + ")";
  }
}
