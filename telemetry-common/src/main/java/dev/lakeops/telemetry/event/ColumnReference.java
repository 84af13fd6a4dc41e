package dev.lakeops.telemetry.event;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One column a query referenced, and how.
 *
 * @param column the column name (a dotted path for nested fields)
 * @param clause the clause the column appeared in
 * @param predicateKind the predicate shape for filters, when the engine knows it
 */
public record ColumnReference(String column, Clause clause, Optional<PredicateKind> predicateKind) {
  public ColumnReference {
    TableName.requireNonBlank(column, "column");
    requireNonNull(clause, "clause is null");
    requireNonNull(predicateKind, "predicateKind is null");
  }

  /** A filter on {@code column} with a known predicate shape. */
  public static ColumnReference filter(String column, PredicateKind predicateKind) {
    return new ColumnReference(column, Clause.FILTER, Optional.of(predicateKind));
  }

  /** A reference without a known predicate shape, e.g. a join key or a projection. */
  public static ColumnReference of(String column, Clause clause) {
    return new ColumnReference(column, clause, Optional.empty());
  }
}
