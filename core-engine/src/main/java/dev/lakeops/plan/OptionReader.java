package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;

/** Reads typed option values, naming the key and the expected type when a value is malformed. */
final class OptionReader {
  private final Map<String, String> options;

  OptionReader(Map<String, String> options) {
    this.options = requireNonNull(options, "options is null");
  }

  long longValue(String key, long defaultValue) {
    String text = options.get(key);
    if (text == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(key, text, "a whole number");
    }
  }

  int intValue(String key, int defaultValue) {
    long value = longValue(key, defaultValue);
    if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
      throw invalid(key, options.get(key), "a whole number up to " + Integer.MAX_VALUE);
    }
    return (int) value;
  }

  double doubleValue(String key, double defaultValue) {
    String text = options.get(key);
    if (text == null) {
      return defaultValue;
    }
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(key, text, "a number");
    }
  }

  boolean booleanValue(String key, boolean defaultValue) {
    String text = options.get(key);
    if (text == null) {
      return defaultValue;
    }
    String normalized = text.trim().toLowerCase(Locale.ROOT);
    if (normalized.equals("true") || normalized.equals("false")) {
      return Boolean.parseBoolean(normalized);
    }
    throw invalid(key, text, "true or false");
  }

  private static IllegalArgumentException invalid(String key, String text, String expected) {
    return new IllegalArgumentException(
        "Invalid value '" + text + "' for rewrite option '" + key + "': expected " + expected);
  }
}
