package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.ArgumentValues;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the arguments one caller gave an operation: each value is checked once, and a bad one is an
 * {@link IllegalArgumentException} naming the argument as the caller's host spells it ({@code
 * memory_budget => 'lots'} in SQL, {@code --memory-budget 'lots'} on the command line). A name that
 * is neither an argument of the operation nor one of the binder's host settings is refused.
 */
final class ArgumentReader {
  private final Operation operation;
  private final OperationArguments arguments;
  private final Set<String> settings;

  ArgumentReader(Operation operation, OperationArguments arguments, Set<String> settings) {
    this.operation = requireNonNull(operation, "operation is null");
    this.arguments = requireNonNull(arguments, "arguments is null");
    this.settings = Set.copyOf(requireNonNull(settings, "settings is null"));
    for (String name : arguments.values().keySet()) {
      if (!settings.contains(name)
          && operation.arguments().stream().noneMatch(argument -> argument.name().equals(name))) {
        throw new IllegalArgumentException(
            operation.name() + " takes no argument " + arguments.host().spell(name));
      }
    }
  }

  ArgumentReader(Operation operation, OperationArguments arguments) {
    this(operation, arguments, Set.of());
  }

  Host host() {
    return arguments.host();
  }

  Instant now() {
    return arguments.now();
  }

  /** How the caller spelled {@code name}: its alias when given under one. */
  String spelling(String name) {
    String alias = arguments.spellings().get(name);
    if (alias != null) {
      return alias;
    }
    return settings.contains(name)
        ? arguments.host().spell(name)
        : operation.argument(name).spelling(arguments.host());
  }

  /** The text, or empty when left out or blank. */
  Optional<String> text(String name) {
    return arguments
        .value(name)
        .map(value -> value instanceof String text ? text : String.valueOf(value))
        .filter(text -> !text.isBlank());
  }

  /** The text parsed by {@code parser}; its refusal names the argument. */
  <T> Optional<T> parsed(String name, Function<String, T> parser) {
    Optional<String> text = text(name);
    try {
      return text.map(parser);
    } catch (IllegalArgumentException e) {
      throw invalid(name, quoted(text.orElseThrow()), e.getMessage(), e);
    }
  }

  /** A flag; left out, the contract's default (false unless it says otherwise). */
  boolean flag(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isEmpty()) {
      return !settings.contains(name)
          && Boolean.parseBoolean(operation.argument(name).defaultValue().orElse("false"));
    }
    if (value.get() instanceof Boolean flag) {
      return flag;
    }
    String text = String.valueOf(value.get()).trim();
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw invalid(name, quoted(text), "use true or false", null);
  }

  /** A byte size, given as a size or as text ({@code 512MB}). */
  Optional<ByteSize> size(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isPresent() && value.get() instanceof ByteSize size) {
      return Optional.of(size);
    }
    return parsed(name, ByteSize::parse);
  }

  /** A directory, given as a path or as text. */
  Optional<Path> path(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isPresent() && value.get() instanceof Path path) {
      return Optional.of(path);
    }
    return text(name).map(Path::of);
  }

  /** A whole number of at least {@code minimum}; below it, {@code fix} says what to use. */
  OptionalInt integer(String name, int minimum, String fix) {
    Optional<Object> value = arguments.value(name);
    if (value.isEmpty()) {
      return OptionalInt.empty();
    }
    long number;
    if (value.get() instanceof Number given) {
      number = given.longValue();
    } else {
      String text = String.valueOf(value.get()).trim();
      try {
        number = Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw invalid(name, quoted(text), "use a whole number", e);
      }
    }
    if (number > Integer.MAX_VALUE || number < Integer.MIN_VALUE) {
      throw new IllegalArgumentException(
          spelling(name) + " = " + number + " is out of range: use at most " + Integer.MAX_VALUE);
    }
    if (number < minimum) {
      throw invalid(name, String.valueOf(number), fix, null);
    }
    return OptionalInt.of((int) number);
  }

  /**
   * A point in time: an instant, an age before now (a duration or text such as {@code 7d}), or a
   * timestamp as text, read in the caller's time zone when it has no offset.
   */
  Optional<Instant> cutoff(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isPresent() && value.get() instanceof Instant instant) {
      return Optional.of(instant);
    }
    if (value.isPresent() && value.get() instanceof Duration age) {
      return Optional.of(arguments.now().minus(age));
    }
    return text(name)
        .map(
            text -> TimeInput.parseCutoff(text, arguments.now(), spelling(name), arguments.zone()));
  }

  /** A list of texts, or one comma-separated text; a NULL or blank element is an error. */
  List<String> texts(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isEmpty()) {
      return List.of();
    }
    if (value.get() instanceof List<?> list) {
      return ArgumentValues.texts(spelling(name), list);
    }
    return Arrays.stream(String.valueOf(value.get()).split(","))
        .map(String::trim)
        .filter(item -> !item.isEmpty())
        .toList();
  }

  /** A list of whole numbers; a NULL element is an error. */
  List<Long> longs(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isEmpty()) {
      return List.of();
    }
    if (value.get() instanceof List<?> list) {
      return ArgumentValues.longs(spelling(name), list);
    }
    throw invalid(name, quoted(String.valueOf(value.get())), "use a list of whole numbers", null);
  }

  /** Text keys to text values, in the order given; a NULL key or value is an error. */
  Map<String, String> map(String name) {
    Optional<Object> value = arguments.value(name);
    if (value.isEmpty()) {
      return Map.of();
    }
    if (!(value.get() instanceof Map<?, ?> given)) {
      throw invalid(name, quoted(String.valueOf(value.get())), "use a map of texts to texts", null);
    }
    Map<String, String> texts = new LinkedHashMap<>();
    given.forEach(
        (key, entry) -> {
          if (key == null) {
            throw new IllegalArgumentException(
                "Argument '" + spelling(name) + "' has a NULL key: remove it");
          }
          if (entry == null) {
            throw new IllegalArgumentException(
                "Argument '" + spelling(name) + "' has a NULL value for key '" + key + "'");
          }
          texts.put(String.valueOf(key), String.valueOf(entry));
        });
    return texts;
  }

  /**
   * The error for a bad value of {@code name}: {@code Invalid argument memory_budget => 'lots':
   * why} in SQL, {@code Invalid --memory-budget 'lots': why} elsewhere.
   */
  IllegalArgumentException invalid(String name, String shown, String reason, Throwable cause) {
    String given =
        switch (arguments.host()) {
          case SPARK, TRINO -> "Invalid argument " + spelling(name) + " => " + shown;
          case CLI, FLINK -> "Invalid " + spelling(name) + " " + shown;
        };
    return new IllegalArgumentException(given + ": " + reason, cause);
  }

  /** The error for a bad list value of {@code name}, which shows no single value. */
  IllegalArgumentException invalid(String name, IllegalArgumentException reason) {
    String given =
        switch (arguments.host()) {
          case SPARK, TRINO -> "Invalid argument " + spelling(name);
          case CLI, FLINK -> "Invalid " + spelling(name);
        };
    return new IllegalArgumentException(given + ": " + reason.getMessage(), reason);
  }

  private static String quoted(String text) {
    return "'" + text + "'";
  }
}
