package dev.lakeops.option;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.Function;

/**
 * One rewrite option, declared once: its key (Iceberg's own name where Iceberg has the option), its
 * type, its default, what its value must satisfy and what it means. The option groups ({@link
 * PlannerOptions}, {@link CommitOptions}, {@link ExecutionOptions}, {@link WriterOptions}) declare
 * these; {@link RewriteOptions} parses them.
 *
 * @param key the option's name in {@code options => map(...)} and {@code --option key=value}
 * @param type how its text becomes a value
 * @param defaultValue its value when not given, from the table or other options; empty for an
 *     option that has none (the table's own setting then applies)
 * @param defaultDescription the default, as the docs state it
 * @param check what a value must satisfy
 * @param description one line on what it does
 * @param <T> the type of its value
 */
public record RewriteOption<T>(
    String key,
    OptionType<T> type,
    Optional<Function<OptionValues, T>> defaultValue,
    String defaultDescription,
    OptionCheck<? super T> check,
    String description) {
  public RewriteOption {
    requireNonNull(key, "key is null");
    requireNonNull(type, "type is null");
    requireNonNull(defaultValue, "defaultValue is null");
    requireNonNull(defaultDescription, "defaultDescription is null");
    requireNonNull(check, "check is null");
    requireNonNull(description, "description is null");
  }

  /** An option without a default and without a check; give both with the methods below. */
  public static <T> RewriteOption<T> of(String key, OptionType<T> type, String description) {
    return new RewriteOption<>(
        key, type, Optional.empty(), "none", OptionCheck.anyValue(), description);
  }

  /** This option with the constant default {@code value}. */
  public RewriteOption<T> withDefault(T value) {
    requireNonNull(value, "value is null");
    return withDefault(String.valueOf(value), values -> value);
  }

  /** This option with a default computed from the table or other options, as described. */
  public RewriteOption<T> withDefault(String description, Function<OptionValues, T> value) {
    return new RewriteOption<>(key, type, Optional.of(value), description, check, this.description);
  }

  /** This option without a default value: {@code description} says what applies instead. */
  public RewriteOption<T> withoutDefault(String description) {
    return new RewriteOption<>(key, type, Optional.empty(), description, check, this.description);
  }

  /** This option with values checked by {@code requirement}. */
  public RewriteOption<T> mustSatisfy(OptionCheck<? super T> requirement) {
    return new RewriteOption<>(
        key, type, defaultValue, defaultDescription, requirement, description);
  }

  /** The default for {@code values}' table and options; a programming error if there is none. */
  public T defaultFor(OptionValues values) {
    return defaultValue
        .orElseThrow(() -> new IllegalStateException("rewrite option " + key + " has no default"))
        .apply(values);
  }

  /**
   * {@code value}, checked.
   *
   * @throws IllegalArgumentException naming the option, the value and the requirement
   */
  public T checked(T value) {
    requireNonNull(value, key + " is null");
    requireValid(check.test().test(value), value, check.requirement());
    return value;
  }

  /**
   * Throws unless {@code valid}: for requirements that relate this option to another.
   *
   * @throws IllegalArgumentException naming the option, the value and the requirement
   */
  public void requireValid(boolean valid, Object value, String requirement) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Invalid value " + value + " for rewrite option '" + key + "': must " + requirement);
    }
  }
}
