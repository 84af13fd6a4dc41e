package dev.lakeops.maintain.orphan;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Decides whether a listed file and a referenced file with the same path are the same file. An
 * empty scheme or authority on the referenced side matches anything; otherwise they must be equal
 * after mapping through the equal-schemes and equal-authorities tables.
 */
final class PrefixMatcher {
  private final Map<String, String> equalSchemes;
  private final Map<String, String> equalAuthorities;

  PrefixMatcher(Map<String, String> equalSchemes, Map<String, String> equalAuthorities) {
    this.equalSchemes = expand(equalSchemes, true);
    this.equalAuthorities = expand(equalAuthorities, false);
  }

  boolean sameFile(FileLocation listed, FileLocation referenced) {
    return matches(referenced.scheme(), listed.scheme(), equalSchemes, true)
        && matches(referenced.authority(), listed.authority(), equalAuthorities, false);
  }

  private static boolean matches(
      String referenced, String listed, Map<String, String> equal, boolean caseless) {
    if (referenced.isEmpty()) {
      return true;
    }
    return canonical(referenced, equal, caseless).equals(canonical(listed, equal, caseless));
  }

  private static String canonical(String value, Map<String, String> equal, boolean caseless) {
    String key = caseless ? value.toLowerCase(Locale.ROOT) : value;
    return equal.getOrDefault(key, key);
  }

  /** Keys may list several names, comma separated: {@code "s3a,s3n" -> "s3"}. */
  private static Map<String, String> expand(Map<String, String> table, boolean caseless) {
    Map<String, String> expanded = new HashMap<>();
    table.forEach(
        (keys, value) -> {
          String target = caseless ? value.trim().toLowerCase(Locale.ROOT) : value.trim();
          for (String key : keys.split(",")) {
            String name = caseless ? key.trim().toLowerCase(Locale.ROOT) : key.trim();
            if (!name.isEmpty()) {
              expanded.put(name, target);
            }
          }
        });
    return expanded;
  }
}
