package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

/**
 * Where an effective policy value came from.
 *
 * @param level the level that set it
 * @param name the namespace, table or property that set it; empty for the default and catalog
 */
public record PolicySource(Level level, String name) {
  /** The levels, least specific first. */
  public enum Level {
    DEFAULT,
    CATALOG,
    NAMESPACE,
    TABLE,
    TABLE_PROPERTY
  }

  public static final PolicySource DEFAULT = new PolicySource(Level.DEFAULT, "");
  public static final PolicySource CATALOG = new PolicySource(Level.CATALOG, "");

  public PolicySource {
    requireNonNull(level, "level is null");
    requireNonNull(name, "name is null");
  }

  public static PolicySource namespace(String namespace) {
    return new PolicySource(Level.NAMESPACE, namespace);
  }

  public static PolicySource table(String table) {
    return new PolicySource(Level.TABLE, table);
  }

  public static PolicySource tableProperty(String property) {
    return new PolicySource(Level.TABLE_PROPERTY, property);
  }

  /**
   * {@code default}, {@code catalog}, {@code namespace:db}, {@code table:db.t} or {@code
   * table-property:lakeops.key}.
   */
  @Override
  public String toString() {
    return switch (level) {
      case DEFAULT -> "default";
      case CATALOG -> "catalog";
      case NAMESPACE -> "namespace:" + name;
      case TABLE -> "table:" + name;
      case TABLE_PROPERTY -> "table-property:" + name;
    };
  }
}
