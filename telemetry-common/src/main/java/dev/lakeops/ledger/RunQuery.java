package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * Which ledger rows to list, newest first.
 *
 * @param catalog only runs on this catalog's tables
 * @param table only runs on this table ({@code namespace.table})
 * @param since only runs started at or after this instant
 * @param status only runs in this state
 * @param limit at most this many rows
 */
public record RunQuery(
    Optional<String> catalog,
    Optional<String> table,
    Optional<Instant> since,
    Optional<RunStatus> status,
    int limit) {
  /** The number of rows a query returns unless told otherwise. */
  public static final int DEFAULT_LIMIT = 1_000;

  public RunQuery {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(table, "table is null");
    requireNonNull(since, "since is null");
    requireNonNull(status, "status is null");
    if (limit < 1) {
      throw new IllegalArgumentException("A run query's limit must be at least 1, got " + limit);
    }
  }

  /** Every run, newest first, up to {@link #DEFAULT_LIMIT}. */
  public static RunQuery all() {
    return new RunQuery(
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT);
  }

  public RunQuery withCatalog(String value) {
    return new RunQuery(Optional.of(value), table, since, status, limit);
  }

  public RunQuery withTable(String value) {
    return new RunQuery(catalog, Optional.of(value), since, status, limit);
  }

  public RunQuery withSince(Instant value) {
    return new RunQuery(catalog, table, Optional.of(value), status, limit);
  }

  public RunQuery withStatus(RunStatus value) {
    return new RunQuery(catalog, table, since, Optional.of(value), limit);
  }

  public RunQuery withLimit(int value) {
    return new RunQuery(catalog, table, since, status, value);
  }
}
