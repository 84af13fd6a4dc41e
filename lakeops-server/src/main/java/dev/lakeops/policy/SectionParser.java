package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.text.EditDistance;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Parses one level's flat {@code key -> text} map into a {@link PolicySection}, failing with one
 * line that names the origin, the key and the valid choices.
 */
final class SectionParser {
  /**
   * How errors name where a key was set.
   *
   * @param prefix what starts every message, e.g. {@code policy.yaml: }
   * @param where what follows the key, e.g. {@code in tables.db.events}
   * @param keyPrefix what the user wrote before the key, e.g. {@code lakeops.} for properties
   * @param lakeAllowed whether lake-wide keys may be set here
   */
  record Origin(String prefix, String where, String keyPrefix, boolean lakeAllowed) {
    Origin {
      requireNonNull(prefix, "prefix is null");
      requireNonNull(where, "where is null");
      requireNonNull(keyPrefix, "keyPrefix is null");
    }
  }

  private SectionParser() {}

  static PolicySection parse(Map<String, String> flat, Origin origin) {
    Map<PolicyKey, Object> values = new EnumMap<>(PolicyKey.class);
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : flat.entrySet()) {
      String name = entry.getKey();
      String text = entry.getValue();
      if (name.startsWith(PolicyKey.COMPACT_OPTIONS_PREFIX)) {
        String option = name.substring(PolicyKey.COMPACT_OPTIONS_PREFIX.length());
        if (!RewriteOptions.VALID_KEYS.contains(option)) {
          throw new PolicyException(
              origin.prefix()
                  + "unknown rewrite option '"
                  + origin.keyPrefix()
                  + name
                  + "'"
                  + origin.where()
                  + suggestion(
                      option,
                      RewriteOptions.VALID_KEYS,
                      origin.keyPrefix() + PolicyKey.COMPACT_OPTIONS_PREFIX)
                  + "; valid options: "
                  + String.join(", ", new TreeSet<>(RewriteOptions.VALID_KEYS)));
        }
        try {
          RewriteOptionValues.check(option, text);
        } catch (IllegalArgumentException e) {
          throw new PolicyException(
              origin.prefix() + origin.keyPrefix() + name + origin.where() + ": " + e.getMessage());
        }
        options.put(option, text);
        continue;
      }
      Optional<PolicyKey> key = PolicyKey.named(name);
      if (key.isEmpty()) {
        throw new PolicyException(
            origin.prefix()
                + "unknown key '"
                + origin.keyPrefix()
                + name
                + "'"
                + origin.where()
                + suggestion(name, validKeys(true), origin.keyPrefix())
                + "; valid keys: "
                + String.join(", ", validKeys(origin.lakeAllowed())));
      }
      if (key.get().scope() == PolicyKey.Scope.LAKE && !origin.lakeAllowed()) {
        throw new PolicyException(
            origin.prefix()
                + origin.keyPrefix()
                + name
                + origin.where()
                + " is lake-wide: set it in the policy file's catalog: section");
      }
      try {
        values.put(key.get(), key.get().parse(text));
      } catch (IllegalArgumentException e) {
        throw new PolicyException(
            origin.prefix() + origin.keyPrefix() + name + origin.where() + ": " + e.getMessage());
      }
    }
    return new PolicySection(values, options);
  }

  /** The keys that may be set at a level, in reference order, with the rewrite option pattern. */
  static List<String> validKeys(boolean lakeAllowed) {
    List<String> keys =
        Arrays.stream(PolicyKey.values())
            .filter(key -> lakeAllowed || key.scope() == PolicyKey.Scope.TABLE)
            .map(PolicyKey::key)
            .collect(Collectors.toList());
    keys.add(PolicyKey.COMPACT_OPTIONS_PREFIX + "<rewrite option>");
    return keys;
  }

  private static String suggestion(String name, Iterable<String> candidates, String keyPrefix) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = EditDistance.between(name, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best != null && bestDistance <= Math.max(2, name.length() / 4)
        ? " (did you mean '" + keyPrefix + best + "'?)"
        : "";
  }
}
