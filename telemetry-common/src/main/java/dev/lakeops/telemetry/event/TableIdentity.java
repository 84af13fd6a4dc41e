package dev.lakeops.telemetry.event;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Optional;

/**
 * What identifies a table whatever an engine calls its catalog: the table's UUID from its metadata
 * and its location, when the engine can see them. Engines that only know names (Trino's event
 * listener) record {@link #unknown()}; telemetry is then matched by namespace and table name.
 *
 * @param uuid the table's UUID ({@code table-uuid} of its metadata), lower case
 * @param location the table's base location, normalized by {@link #normalizeLocation(String)}
 */
public record TableIdentity(Optional<String> uuid, Optional<String> location) {
  private static final TableIdentity UNKNOWN =
      new TableIdentity(Optional.empty(), Optional.empty());

  public TableIdentity {
    uuid =
        requireNonNull(uuid, "uuid is null")
            .filter(value -> !value.isBlank())
            .map(value -> value.toLowerCase(Locale.ROOT));
    location =
        requireNonNull(location, "location is null")
            .filter(value -> !value.isBlank())
            .map(TableIdentity::normalizeLocation);
  }

  /** Nothing known but the name. */
  public static TableIdentity unknown() {
    return UNKNOWN;
  }

  /** A table with this UUID and base location; either may be null. */
  public static TableIdentity of(String uuid, String location) {
    return new TableIdentity(Optional.ofNullable(uuid), Optional.ofNullable(location));
  }

  public boolean isKnown() {
    return uuid.isPresent() || location.isPresent();
  }

  /**
   * One spelling per local path: {@code file:/w/t}, {@code file:///w/t} and {@code /w/t/} all
   * become {@code /w/t}; other schemes ({@code s3://b/w/t}) keep theirs, without a trailing slash.
   */
  public static String normalizeLocation(String location) {
    requireNonNull(location, "location is null");
    String normalized = location.strip();
    if (normalized.startsWith("file:")) {
      normalized = "/" + normalized.substring("file:".length()).replaceFirst("^/+", "");
    }
    while (normalized.length() > 1 && normalized.endsWith("/")) {
      normalized = normalized.substring(0, normalized.length() - 1);
    }
    return normalized;
  }
}
