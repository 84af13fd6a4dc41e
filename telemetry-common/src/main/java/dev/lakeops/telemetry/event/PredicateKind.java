package dev.lakeops.telemetry.event;

/** The shape of a filter predicate on one column, where the engine can tell. */
public enum PredicateKind {
  /** {@code column = literal}. */
  EQUALITY,
  /** {@code <}, {@code <=}, {@code >}, {@code >=} or {@code BETWEEN}. */
  RANGE,
  /** {@code column IN (a, b, c)}. */
  IN_LIST,
  /** {@code column IS NULL} or {@code IS NOT NULL}. */
  IS_NULL,
  /** {@code column LIKE 'prefix%'}. */
  LIKE_PREFIX
}
