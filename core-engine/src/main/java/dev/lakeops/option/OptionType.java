package dev.lakeops.option;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The type of a rewrite option: how its text becomes a value. A malformed text is an error naming
 * the option and the form expected.
 *
 * @param <T> the type of the value
 */
public final class OptionType<T> {
  /** A whole number, e.g. a size in bytes. */
  public static final OptionType<Long> LONG = new OptionType<>("long", OptionType::parseLong);

  /** A whole number up to {@link Integer#MAX_VALUE}. */
  public static final OptionType<Integer> INTEGER = new OptionType<>("int", OptionType::parseInt);

  /** A decimal number. */
  public static final OptionType<Double> DOUBLE =
      new OptionType<>("double", OptionType::parseDouble);

  /** {@code true} or {@code false}, in any case. */
  public static final OptionType<Boolean> BOOLEAN =
      new OptionType<>("boolean", OptionType::parseBoolean);

  /** A duration such as {@code 15m} or {@code 2h}. */
  public static final OptionType<Duration> DURATION =
      new OptionType<>(
          "duration", (key, text) -> TimeInput.parseDuration(text, "rewrite option '" + key + "'"));

  /** A number of bytes, or a size such as {@code 8MB}. */
  public static final OptionType<Long> BYTE_SIZE =
      new OptionType<>("size", OptionType::parseByteSize);

  /** {@code auto}, {@code true} or {@code false}: a switch whose default follows the table. */
  public static final OptionType<Optional<Boolean>> AUTO_BOOLEAN =
      new OptionType<>("auto or boolean", OptionType::parseAutoBoolean);

  private final String name;
  private final Parser<T> parser;

  private OptionType(String name, Parser<T> parser) {
    this.name = requireNonNull(name, "name is null");
    this.parser = requireNonNull(parser, "parser is null");
  }

  /** The type's name, as the docs show it. */
  public String name() {
    return name;
  }

  /**
   * The value {@code text} gives option {@code key}.
   *
   * @throws IllegalArgumentException naming the option and the form expected
   */
  public T parse(String key, String text) {
    return parser.parse(requireNonNull(key, "key is null"), requireNonNull(text, "text is null"));
  }

  @Override
  public String toString() {
    return name;
  }

  private static Long parseLong(String key, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(key, text, "a whole number");
    }
  }

  private static Integer parseInt(String key, String text) {
    long value = parseLong(key, text);
    if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
      throw invalid(key, text, "a whole number up to " + Integer.MAX_VALUE);
    }
    return (int) value;
  }

  private static Double parseDouble(String key, String text) {
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(key, text, "a number");
    }
  }

  private static Boolean parseBoolean(String key, String text) {
    String normalized = text.trim().toLowerCase(Locale.ROOT);
    if (normalized.equals("true") || normalized.equals("false")) {
      return Boolean.parseBoolean(normalized);
    }
    throw invalid(key, text, "true or false");
  }

  private static Long parseByteSize(String key, String text) {
    try {
      return ByteSize.parse(text.trim()).bytes();
    } catch (IllegalArgumentException e) {
      throw invalid(key, text, "a number of bytes or a size such as 8MB");
    }
  }

  private static Optional<Boolean> parseAutoBoolean(String key, String text) {
    String normalized = text.trim().toLowerCase(Locale.ROOT);
    return switch (normalized) {
      case "auto" -> Optional.empty();
      case "true", "false" -> Optional.of(Boolean.parseBoolean(normalized));
      default -> throw invalid(key, text, "auto, true or false");
    };
  }

  private static IllegalArgumentException invalid(String key, String text, String expected) {
    return new IllegalArgumentException(
        "Invalid value '" + text + "' for rewrite option '" + key + "': expected " + expected);
  }

  @FunctionalInterface
  private interface Parser<T> {
    T parse(String key, String text);
  }
}
