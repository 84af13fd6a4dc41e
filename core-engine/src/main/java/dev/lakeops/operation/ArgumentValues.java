package dev.lakeops.operation;

import java.util.ArrayList;
import java.util.List;

/** The checks every host applies to list values, so that bad input fails the same everywhere. */
public final class ArgumentValues {
  private ArgumentValues() {}

  /**
   * The elements of a list argument as texts, trimmed; NULL stands for an empty list. A NULL or
   * blank element is an error that names the argument and the position.
   */
  public static List<String> texts(String argument, List<?> values) {
    List<String> texts = new ArrayList<>();
    for (Object value : checked(argument, values)) {
      String text = String.valueOf(value).trim();
      if (text.isEmpty()) {
        throw new IllegalArgumentException(
            "Argument '"
                + argument
                + "' has a blank element at position "
                + (texts.size() + 1)
                + ": remove it");
      }
      texts.add(text);
    }
    return List.copyOf(texts);
  }

  /** The elements of a list of whole numbers; NULL is empty, a NULL element is an error. */
  public static List<Long> longs(String argument, List<?> values) {
    return checked(argument, values).stream().map(value -> ((Number) value).longValue()).toList();
  }

  private static List<?> checked(String argument, List<?> values) {
    if (values == null) {
      return List.of();
    }
    for (int index = 0; index < values.size(); index++) {
      if (values.get(index) == null) {
        throw new IllegalArgumentException(
            "Argument '"
                + argument
                + "' has a NULL element at position "
                + (index + 1)
                + ": remove it or pass a value");
      }
    }
    return values;
  }
}
