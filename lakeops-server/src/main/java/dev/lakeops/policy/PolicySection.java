package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values one level of a policy sets: parsed policy keys and raw rewrite options.
 *
 * @param values the keys this level sets, parsed
 * @param compactOptions Iceberg rewrite options ({@code compact.options.<option>}) by option name
 */
public record PolicySection(Map<PolicyKey, Object> values, Map<String, String> compactOptions) {
  public static final PolicySection EMPTY = new PolicySection(Map.of(), Map.of());

  public PolicySection {
    values = Collections.unmodifiableMap(copy(requireNonNull(values, "values is null")));
    compactOptions =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(compactOptions, "compactOptions is null")));
  }

  private static Map<PolicyKey, Object> copy(Map<PolicyKey, Object> values) {
    Map<PolicyKey, Object> copy = new EnumMap<>(PolicyKey.class);
    copy.putAll(values);
    return copy;
  }
}
