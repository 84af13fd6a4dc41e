package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

/**
 * One key of a table's effective maintenance policy and where its value came from.
 *
 * @param key the policy key, e.g. {@code compact.min-small-files}
 * @param value the value in force, as text
 * @param source where it came from, e.g. {@code default}, {@code policy file: tables.sales.orders},
 *     {@code table property lakeops.compact.min-small-files}
 */
public record PolicyValue(String key, String value, String source) {
  public PolicyValue {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
    requireNonNull(source, "source is null");
  }
}
