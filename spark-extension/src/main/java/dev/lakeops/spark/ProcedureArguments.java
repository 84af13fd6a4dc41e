package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.ArgumentValues;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.OperationArguments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a procedure's input row by argument name. Spark fills the row in the order of {@code
 * parameters()}, with defaults already applied; each reader names the argument when it fails.
 */
final class ProcedureArguments {
  private static final Logger log = LoggerFactory.getLogger(ProcedureArguments.class);

  private final List<String> names;
  private final InternalRow row;

  ProcedureArguments(ProcedureParameter[] parameters, InternalRow row) {
    this.names = Arrays.stream(parameters).map(ProcedureParameter::name).toList();
    this.row = requireNonNull(row, "row is null");
  }

  String requiredString(String name) {
    return string(name)
        .orElseThrow(() -> new IllegalArgumentException("Argument '" + name + "' is required"));
  }

  /** The text, or empty when the argument is NULL or blank. */
  Optional<String> string(String name) {
    int index = index(name);
    if (row.isNullAt(index)) {
      return Optional.empty();
    }
    return Optional.of(row.getUTF8String(index).toString()).filter(text -> !text.isBlank());
  }

  /** The text parsed by {@code parser}; a parse failure names the argument. */
  <T> Optional<T> parsed(String name, Function<String, T> parser) {
    return parsed(name, string(name), parser);
  }

  /** As {@link #parsed(String, Function)} for a value read already (under an alias, perhaps). */
  static <T> Optional<T> parsed(String name, Optional<String> text, Function<String, T> parser) {
    try {
      return text.map(parser);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid argument " + name + " => '" + text.orElseThrow() + "': " + e.getMessage(), e);
    }
  }

  /** An ARRAY<STRING> argument, trimmed; a NULL or blank element is an error. */
  List<String> strings(String name) {
    List<Object> elements = elements(name, DataTypes.StringType);
    return ArgumentValues.texts(
        name,
        elements == null
            ? null
            : elements.stream().map(value -> value == null ? null : value.toString()).toList());
  }

  /**
   * The list argument {@code name}, or its deprecated spelling {@code alias}: one comma-separated
   * text; both at once is an error.
   */
  List<String> stringsOrCommaSeparated(String name, String alias) {
    List<String> list = strings(name);
    Optional<String> aliased = string(alias);
    checkOneOf(name, !list.isEmpty(), alias, aliased.isPresent());
    return aliased.map(ProcedureArguments::commaSeparated).orElse(list);
  }

  boolean booleanValue(String name) {
    int index = index(name);
    return !row.isNullAt(index) && row.getBoolean(index);
  }

  Map<String, String> map(String name) {
    int index = index(name);
    if (row.isNullAt(index)) {
      return Map.of();
    }
    MapData data = row.getMap(index);
    ArrayData keys = data.keyArray();
    ArrayData values = data.valueArray();
    Map<String, String> result = new LinkedHashMap<>();
    for (int i = 0; i < data.numElements(); i++) {
      String key = keys.getUTF8String(i).toString();
      if (values.isNullAt(i)) {
        throw new IllegalArgumentException(
            "Argument '" + name + "' has a NULL value for key '" + key + "'");
      }
      result.put(key, values.getUTF8String(i).toString());
    }
    return result;
  }

  /**
   * The contract arguments of {@code operation} the caller gave, as the core's binders take them
   * (left-out and blank ones absent); a deprecated alias counts as its argument, under its own
   * spelling, and both at once is an error.
   */
  OperationArguments contract(Operation operation) {
    OperationArguments given = OperationArguments.on(Host.SPARK);
    for (OperationArgument argument : operation.arguments(Host.SPARK)) {
      Object value = value(argument.name(), argument.type());
      given = given.with(argument.name(), value);
      for (ArgumentAlias alias : argument.aliasesOn(Host.SPARK)) {
        Object aliased = value(alias.name(), alias.type());
        checkOneOf(argument.name(), value != null, alias.name(), aliased != null);
        given = given.withAlias(argument.name(), alias.name(), aliased);
      }
    }
    return given;
  }

  /** The value of {@code name} as the binders take it; NULL when left out (or blank text). */
  private Object value(String name, ArgumentType type) {
    if (row.isNullAt(index(name))) {
      return null;
    }
    return switch (type) {
      case TEXT, SIZE, CUTOFF -> string(name).orElse(null);
      case BOOLEAN -> row.getBoolean(index(name));
      case INTEGER -> row.getInt(index(name));
      case TEXT_LIST ->
          elements(name, DataTypes.StringType).stream()
              .map(value -> value == null ? null : value.toString())
              .toList();
      case LONG_LIST -> elements(name, DataTypes.LongType);
      case TEXT_MAP -> map(name);
    };
  }

  /** A comma-separated list, trimmed, without empty items. */
  static List<String> commaSeparated(String text) {
    return Arrays.stream(text.split(","))
        .map(String::trim)
        .filter(item -> !item.isEmpty())
        .toList();
  }

  /** Refuses an argument given under both spellings; warns about the deprecated one. */
  private static void checkOneOf(String name, boolean given, String alias, boolean aliasGiven) {
    if (!aliasGiven) {
      return;
    }
    if (given) {
      throw new IllegalArgumentException(
          "Arguments '"
              + name
              + "' and '"
              + alias
              + "' are the same argument: pass only "
              + name
              + " ("
              + alias
              + " is its deprecated spelling)");
    }
    log.warn("Argument '{}' is deprecated: use '{}'", alias, name);
  }

  /** The elements of an array argument (NULL for a NULL array), NULL elements kept. */
  private List<Object> elements(String name, DataType elementType) {
    int index = index(name);
    if (row.isNullAt(index)) {
      return null;
    }
    ArrayData array = row.getArray(index);
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < array.numElements(); i++) {
      values.add(array.isNullAt(i) ? null : array.get(i, elementType));
    }
    return values;
  }

  private int index(String name) {
    int index = names.indexOf(name);
    if (index < 0) {
      throw new IllegalStateException("Not a parameter of this procedure: " + name);
    }
    return index;
  }
}
