package dev.lakeops.maintain.orphan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What to do with a listed file whose path matches a referenced file but whose scheme or authority
 * differs (same semantics as Iceberg's {@code prefix_mismatch_mode}).
 */
public enum PrefixMismatchMode {
  /** Refuse to delete anything and name the conflicting prefixes. The default: fail closed. */
  ERROR,
  /** Keep such files: treat them as referenced. */
  IGNORE,
  /** Delete such files: treat them as orphans. */
  DELETE;

  public static PrefixMismatchMode parse(String text) {
    for (PrefixMismatchMode mode : values()) {
      if (mode.name().equalsIgnoreCase(text.trim())) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "Invalid prefix mismatch mode '"
            + text
            + "': use one of "
            + Arrays.stream(values())
                .map(mode -> mode.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")));
  }
}
