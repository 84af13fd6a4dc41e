package dev.lakeops.option;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * What a rewrite option's value must satisfy, and how the error says it ("must be positive").
 *
 * @param test whether a value is valid
 * @param requirement the requirement, completing "must ..."
 * @param <T> the type of the values checked
 */
public record OptionCheck<T>(Predicate<T> test, String requirement) {
  public OptionCheck {
    requireNonNull(test, "test is null");
    requireNonNull(requirement, "requirement is null");
  }

  /** Every value is valid. */
  public static OptionCheck<Object> anyValue() {
    return new OptionCheck<>(value -> true, "be any value");
  }

  public static OptionCheck<Number> positive() {
    return new OptionCheck<>(value -> value.doubleValue() > 0, "be positive");
  }

  public static OptionCheck<Number> notNegative() {
    return new OptionCheck<>(value -> value.doubleValue() >= 0, "not be negative");
  }

  /** Greater than 0 and at most 1. */
  public static OptionCheck<Number> ratio() {
    return new OptionCheck<>(
        value -> value.doubleValue() > 0 && value.doubleValue() <= 1, "be in (0, 1]");
  }

  /** From {@code minimum} to {@code maximum}, both included. */
  public static OptionCheck<Number> between(long minimum, long maximum) {
    return new OptionCheck<>(
        value -> value.longValue() >= minimum && value.longValue() <= maximum,
        "be from " + minimum + " to " + maximum);
  }

  public static OptionCheck<Duration> notNegativeDuration() {
    return new OptionCheck<>(value -> !value.isNegative(), "not be negative");
  }
}
