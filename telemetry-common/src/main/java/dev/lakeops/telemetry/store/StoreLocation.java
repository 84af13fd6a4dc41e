package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * A parsed telemetry store configuration string.
 *
 * <ul>
 *   <li>{@code sqlite:<path>}: an embedded SQLite file; {@code ~/} expands to the user's home.
 *   <li>{@code jdbc:postgresql://host:port/database?user=...}: a shared PostgreSQL database; any
 *       PostgreSQL JDBC parameter may follow, e.g. {@code currentSchema=lakeops}.
 * </ul>
 *
 * @param kind the database kind
 * @param jdbcUrl the JDBC URL to connect to
 */
public record StoreLocation(StoreKind kind, String jdbcUrl) {
  /** The configuration used when none is given. */
  public static final String DEFAULT_CONFIGURATION = "sqlite:~/.lakeops/telemetry.db";

  static final String SQLITE_PREFIX = "sqlite:";
  static final String SQLITE_JDBC_PREFIX = "jdbc:sqlite:";
  static final String POSTGRESQL_PREFIX = "jdbc:postgresql:";

  public StoreLocation {
    requireNonNull(kind, "kind is null");
    requireNonNull(jdbcUrl, "jdbcUrl is null");
  }

  /** Parses a configuration string; a null or blank string means {@link #DEFAULT_CONFIGURATION}. */
  public static StoreLocation parse(String configuration) {
    String text =
        configuration == null || configuration.isBlank()
            ? DEFAULT_CONFIGURATION
            : configuration.strip();
    if (text.startsWith(SQLITE_PREFIX)) {
      return sqlite(text.substring(SQLITE_PREFIX.length()), text);
    }
    if (text.startsWith(POSTGRESQL_PREFIX)) {
      return new StoreLocation(StoreKind.POSTGRESQL, text);
    }
    throw new IllegalArgumentException(
        "Unsupported telemetry store '"
            + redact(text)
            + "': use sqlite:<path> (default "
            + DEFAULT_CONFIGURATION
            + ") or jdbc:postgresql://<host>:<port>/<database>");
  }

  /** An embedded SQLite store in {@code file}. */
  public static StoreLocation sqliteFile(Path file) {
    return new StoreLocation(StoreKind.SQLITE, SQLITE_JDBC_PREFIX + file.toAbsolutePath());
  }

  private static StoreLocation sqlite(String path, String text) {
    if (path.isBlank()) {
      throw new IllegalArgumentException(
          "Telemetry store '"
              + text
              + "' names no file: use sqlite:<path>, e.g. "
              + DEFAULT_CONFIGURATION);
    }
    String expanded =
        path.equals("~") || path.startsWith("~/")
            ? System.getProperty("user.home") + path.substring(1)
            : path;
    return sqliteFile(Path.of(expanded));
  }

  /** The URL without its parameters, which may hold a password: safe for messages and logs. */
  public String describe() {
    return redact(jdbcUrl);
  }

  private static String redact(String text) {
    int parameters = text.indexOf('?');
    return parameters < 0 ? text : text.substring(0, parameters) + "?...";
  }

  @Override
  public String toString() {
    return kind + " " + describe();
  }
}
