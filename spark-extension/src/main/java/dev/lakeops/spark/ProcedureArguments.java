package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;

/**
 * Reads a procedure's input row by parameter. Spark fills the row in the order of {@code
 * parameters()}, with defaults already applied; each reader names the argument when it fails.
 */
final class ProcedureArguments {
  private final List<ProcedureParameter> parameters;
  private final InternalRow row;

  ProcedureArguments(ProcedureParameter[] parameters, InternalRow row) {
    this.parameters = List.of(requireNonNull(parameters, "parameters is null"));
    this.row = requireNonNull(row, "row is null");
  }

  String requiredString(ProcedureParameter parameter) {
    return string(parameter)
        .orElseThrow(
            () -> new IllegalArgumentException("Argument '" + parameter.name() + "' is required"));
  }

  /** The text, or empty when the argument is NULL or blank. */
  Optional<String> string(ProcedureParameter parameter) {
    int index = index(parameter);
    if (row.isNullAt(index)) {
      return Optional.empty();
    }
    return Optional.of(row.getUTF8String(index).toString()).filter(text -> !text.isBlank());
  }

  /** The text parsed by {@code parser}; a parse failure names the argument. */
  <T> Optional<T> parsed(ProcedureParameter parameter, Function<String, T> parser) {
    Optional<String> text = string(parameter);
    try {
      return text.map(parser);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid argument "
              + parameter.name()
              + " => '"
              + text.orElseThrow()
              + "': "
              + e.getMessage(),
          e);
    }
  }

  /** A comma-separated list, trimmed, without empty items. */
  List<String> list(ProcedureParameter parameter) {
    return string(parameter)
        .map(
            text ->
                Arrays.stream(text.split(","))
                    .map(String::trim)
                    .filter(item -> !item.isEmpty())
                    .toList())
        .orElse(List.of());
  }

  /** A TIMESTAMP argument; Spark stores microseconds since the epoch. */
  Optional<Instant> timestamp(ProcedureParameter parameter) {
    int index = index(parameter);
    if (row.isNullAt(index)) {
      return Optional.empty();
    }
    long micros = row.getLong(index);
    return Optional.of(Instant.EPOCH.plus(micros, ChronoUnit.MICROS));
  }

  /** An INT argument that must be at least {@code minimum}. */
  OptionalInt integer(ProcedureParameter parameter, int minimum, String fix) {
    int index = index(parameter);
    if (row.isNullAt(index)) {
      return OptionalInt.empty();
    }
    int value = row.getInt(index);
    if (value < minimum) {
      throw new IllegalArgumentException(
          "Invalid argument " + parameter.name() + " => " + value + ": " + fix);
    }
    return OptionalInt.of(value);
  }

  /** An ARRAY<BIGINT> argument, without NULL elements. */
  List<Long> longs(ProcedureParameter parameter) {
    int index = index(parameter);
    if (row.isNullAt(index)) {
      return List.of();
    }
    ArrayData array = row.getArray(index);
    List<Long> values = new ArrayList<>();
    for (int i = 0; i < array.numElements(); i++) {
      if (array.isNullAt(i)) {
        throw new IllegalArgumentException(
            "Argument '" + parameter.name() + "' has a NULL element");
      }
      values.add(array.getLong(i));
    }
    return values;
  }

  /** An ARRAY<STRING> argument, trimmed, without NULL or blank elements. */
  List<String> strings(ProcedureParameter parameter) {
    int index = index(parameter);
    if (row.isNullAt(index)) {
      return List.of();
    }
    ArrayData array = row.getArray(index);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < array.numElements(); i++) {
      if (!array.isNullAt(i) && !array.getUTF8String(i).toString().isBlank()) {
        values.add(array.getUTF8String(i).toString().trim());
      }
    }
    return values;
  }

  boolean booleanValue(ProcedureParameter parameter) {
    int index = index(parameter);
    return !row.isNullAt(index) && row.getBoolean(index);
  }

  Map<String, String> map(ProcedureParameter parameter) {
    int index = index(parameter);
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
            "Argument '" + parameter.name() + "' has a NULL value for key '" + key + "'");
      }
      result.put(key, values.getUTF8String(i).toString());
    }
    return result;
  }

  private int index(ProcedureParameter parameter) {
    int index = parameters.indexOf(parameter);
    if (index < 0) {
      throw new IllegalStateException("Not a parameter of this procedure: " + parameter.name());
    }
    return index;
  }
}
