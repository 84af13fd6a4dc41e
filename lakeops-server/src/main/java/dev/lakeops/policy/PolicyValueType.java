package dev.lakeops.policy;

import dev.lakeops.compact.Strategy;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.unit.TimeInput;
import dev.lakeops.verify.VerificationMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** How a policy value is written and parsed; each parse error is one line without the key. */
public enum PolicyValueType {
  BOOLEAN("true|false"),
  DURATION("a duration such as 30s, 10m, 12h or 7d"),
  SIZE("a size such as 512MB or 1GB"),
  OPTIONAL_SIZE("a size such as 512MB or 1GB, or 'none'"),
  COUNT("a whole number, at least 1"),
  RATIO("a number in (0, 1], e.g. 0.75"),
  STRATEGY("binpack|sort|zorder|auto"),
  VERIFICATION("counts|checksum|off|default"),
  OPTIONAL_COMMAND("a command line containing {table}, or 'none'");

  private final String choices;

  PolicyValueType(String choices) {
    this.choices = choices;
  }

  /** The valid values, for error messages and the reference. */
  public String choices() {
    return choices;
  }

  /** Parses {@code text}; throws IllegalArgumentException with a one-line reason. */
  public Object parse(String text) {
    String trimmed = text.trim();
    switch (this) {
      case BOOLEAN -> {
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
          return Boolean.parseBoolean(lower);
        }
        throw notOneOf(text);
      }
      case DURATION -> {
        Duration duration = parseDuration(text);
        if (duration.isZero() || duration.isNegative()) {
          throw new IllegalArgumentException("'" + text + "' must be longer than zero");
        }
        return duration;
      }
      case SIZE -> {
        return parseSize(text);
      }
      case OPTIONAL_SIZE -> {
        String lower = trimmed.toLowerCase(Locale.ROOT);
        return lower.equals("none") || lower.equals("table") || lower.equals("unlimited")
            ? Optional.empty()
            : Optional.of(parseSize(text));
      }
      case COUNT -> {
        try {
          int value = Integer.parseInt(trimmed);
          if (value >= 1) {
            return value;
          }
        } catch (NumberFormatException e) {
          // the one message below
        }
        throw new IllegalArgumentException("'" + text + "' is not " + choices);
      }
      case RATIO -> {
        try {
          double value = Double.parseDouble(trimmed);
          if (value > 0 && value <= 1) {
            return value;
          }
        } catch (NumberFormatException e) {
          // the one message below
        }
        throw new IllegalArgumentException("'" + text + "' is not " + choices);
      }
      case OPTIONAL_COMMAND -> {
        if (trimmed.toLowerCase(Locale.ROOT).equals("none")) {
          return Optional.empty();
        }
        try {
          return Optional.of(SubmitCommand.parse(text));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("'" + text + "': " + e.getMessage());
        }
      }
      case VERIFICATION -> {
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.equals("default")) {
          return Optional.empty();
        }
        try {
          return Optional.of(VerificationMode.parse(lower));
        } catch (IllegalArgumentException e) {
          throw notOneOf(text);
        }
      }
      default -> {
        for (Strategy strategy : Strategy.values()) {
          if (strategy.displayName().equals(trimmed.toLowerCase(Locale.ROOT))) {
            return strategy;
          }
        }
        throw notOneOf(text);
      }
    }
  }

  /** Writes {@code value} back the way a policy file would. */
  public String format(Object value) {
    return switch (this) {
      case DURATION -> TimeInput.format((Duration) value);
      case SIZE -> formatSize((ByteSize) value);
      case OPTIONAL_SIZE ->
          ((Optional<?>) value).map(size -> formatSize((ByteSize) size)).orElse("none");
      case STRATEGY -> ((Strategy) value).displayName();
      case VERIFICATION ->
          ((Optional<?>) value)
              .map(mode -> ((VerificationMode) mode).displayName())
              .orElse("default");
      case OPTIONAL_COMMAND ->
          ((Optional<?>) value).map(command -> ((SubmitCommand) command).text()).orElse("none");
      default -> String.valueOf(value);
    };
  }

  private static String formatSize(ByteSize size) {
    long bytes = size.bytes();
    String[] units = {"B", "KB", "MB", "GB", "TB"};
    int unit = 0;
    while (unit < units.length - 1 && bytes != 0 && bytes % 1024 == 0) {
      bytes /= 1024;
      unit++;
    }
    return bytes + units[unit];
  }

  private Duration parseDuration(String text) {
    try {
      return TimeInput.parseDuration(text, "duration");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not " + choices);
    }
  }

  private ByteSize parseSize(String text) {
    try {
      ByteSize size = ByteSize.parse(text);
      if (size.bytes() > 0) {
        return size;
      }
    } catch (IllegalArgumentException e) {
      // the one message below
    }
    throw new IllegalArgumentException("'" + text + "' is not " + choices);
  }

  private IllegalArgumentException notOneOf(String text) {
    return new IllegalArgumentException("'" + text + "' is not one of " + choices);
  }
}
