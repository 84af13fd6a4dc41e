package dev.lakeops.telemetry.event;

/** Where in a query a column appeared. */
public enum Clause {
  /** A {@code WHERE} or {@code HAVING} predicate, or a predicate pushed into the scan. */
  FILTER,
  /** A join condition key. */
  JOIN_KEY,
  /** A {@code GROUP BY} key. */
  GROUP_BY,
  /** An {@code ORDER BY} key. */
  ORDER_BY,
  /** A column read for output only. */
  PROJECTION
}
