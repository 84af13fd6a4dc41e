package dev.lakeops.option;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * The rewrite options given for one table, read through their {@link RewriteOption} descriptors:
 * each value is parsed once, and an option not given takes its default, which may depend on the
 * table or on another option.
 */
public final class OptionValues {
  private final Table table;
  private final Map<String, String> given;
  private final Map<String, Object> values = new HashMap<>();

  public OptionValues(Table table, Map<String, String> given) {
    this.table = requireNonNull(table, "table is null");
    this.given = Map.copyOf(requireNonNull(given, "given is null"));
  }

  /** The table the options apply to, for defaults read from its properties. */
  public Table table() {
    return table;
  }

  /** The value of {@code option}: as given, or its default. */
  public <T> T value(RewriteOption<T> option) {
    Optional<T> value = given(option);
    return value.isPresent() ? value.get() : option.defaultFor(this);
  }

  /** The value of {@code option} when it was given; empty when it takes its default. */
  public <T> Optional<T> given(RewriteOption<T> option) {
    String text = given.get(option.key());
    if (text == null) {
      return Optional.empty();
    }
    @SuppressWarnings("unchecked") // values holds each key's value as its option's type parsed it
    T value = (T) values.computeIfAbsent(option.key(), key -> option.type().parse(key, text));
    return Optional.of(value);
  }
}
