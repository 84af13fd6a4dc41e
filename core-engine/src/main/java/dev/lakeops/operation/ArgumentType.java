package dev.lakeops.operation;

/**
 * The kind of value an operation argument takes. Each engine maps a kind to one of its own types
 * (see {@link Host}); the meaning and the accepted text are the same everywhere.
 */
public enum ArgumentType {
  /** Free text: a strategy name, a sort order, a filter, a path. */
  TEXT,
  /** true or false. */
  BOOLEAN,
  /** A whole number; Spark declares INT, Trino BIGINT (Trino procedures take no INTEGER). */
  INTEGER,
  /** A byte size as text: {@code 512MB}, {@code 8MB}, {@code 1GB}. */
  SIZE,
  /**
   * A point in time as text: an age before now ({@code 7d}, {@code 12h}) or a timestamp ({@code
   * 2026-01-31T00:00:00Z}; {@code 2026-01-31 00:00:00} is read as UTC).
   */
  CUTOFF,
  /** A list of texts; a NULL element is an error. */
  TEXT_LIST,
  /** A list of whole numbers (snapshot ids); a NULL element is an error. */
  LONG_LIST,
  /** Text keys to text values; a NULL key or value is an error. */
  TEXT_MAP
}
