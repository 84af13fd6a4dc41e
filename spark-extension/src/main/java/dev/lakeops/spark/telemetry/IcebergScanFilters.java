package dev.lakeops.spark.telemetry;

import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.connector.read.Scan;

/**
 * The filters Spark pushed into an Iceberg scan. Iceberg answers filters it evaluates completely
 * (e.g. on identity partition columns) by pruning files, and Spark then drops them from the plan:
 * they are only found in the scan. Iceberg's expression classes come from the user's runtime jar,
 * so they are read reflectively through their public accessors ({@code op()}, {@code left()},
 * {@code right()}, {@code child()}, {@code ref().name()}); anything unexpected yields nothing.
 */
final class IcebergScanFilters {
  private IcebergScanFilters() {}

  static List<ColumnUse> uses(Scan scan, TableName table) {
    List<ColumnUse> uses = new ArrayList<>();
    try {
      Method filters = findMethod(scan.getClass(), "filters");
      if (filters == null) {
        return List.of();
      }
      filters.setAccessible(true);
      Object expressions = filters.invoke(scan);
      if (expressions instanceof Iterable<?> iterable) {
        for (Object expression : iterable) {
          collect(expression, table, true, uses);
        }
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      return List.of();
    }
    return uses;
  }

  private static void collect(
      Object expression, TableName table, boolean kindKnown, List<ColumnUse> uses)
      throws ReflectiveOperationException {
    String operation = ((Enum<?>) invoke(expression, "op")).name();
    switch (operation) {
      case "TRUE", "FALSE" -> {}
      case "AND", "OR" -> {
        collect(invoke(expression, "left"), table, kindKnown, uses);
        collect(invoke(expression, "right"), table, kindKnown, uses);
      }
      case "NOT" -> collect(invoke(expression, "child"), table, false, uses);
      default -> {
        String column = (String) invoke(invoke(expression, "ref"), "name");
        TableColumn tableColumn = new TableColumn(table, column);
        if (operation.equals("NOT_NULL") && kindKnown) {
          uses.add(ColumnUse.notNullFilter(tableColumn));
        } else {
          uses.add(ColumnUse.filter(tableColumn, kindKnown ? kindOf(operation) : Optional.empty()));
        }
      }
    }
  }

  private static Optional<PredicateKind> kindOf(String operation) {
    return switch (operation) {
      case "EQ" -> Optional.of(PredicateKind.EQUALITY);
      case "LT", "LT_EQ", "GT", "GT_EQ" -> Optional.of(PredicateKind.RANGE);
      case "IN" -> Optional.of(PredicateKind.IN_LIST);
      case "IS_NULL" -> Optional.of(PredicateKind.IS_NULL);
      case "STARTS_WITH" -> Optional.of(PredicateKind.LIKE_PREFIX);
      default -> Optional.empty();
    };
  }

  private static Object invoke(Object target, String name) throws ReflectiveOperationException {
    Method method = target.getClass().getMethod(name);
    method.setAccessible(true);
    return method.invoke(target);
  }

  private static Method findMethod(Class<?> type, String name) {
    for (Class<?> current = type; current != null; current = current.getSuperclass()) {
      for (Method method : current.getDeclaredMethods()) {
        if (method.getName().equals(name) && method.getParameterCount() == 0) {
          return method;
        }
      }
    }
    return null;
  }
}
