package dev.lakeops.spark.telemetry;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import java.util.Optional;

/**
 * One use of a table column found in a plan.
 *
 * @param column the table column
 * @param reference the clause and predicate kind
 * @param notNullCheck true for an {@code IS NOT NULL} predicate, which Spark's optimizer also adds
 *     on its own next to every null-intolerant predicate and join key
 */
record ColumnUse(TableColumn column, ColumnReference reference, boolean notNullCheck) {
  ColumnUse {
    requireNonNull(column, "column is null");
    requireNonNull(reference, "reference is null");
  }

  static ColumnUse of(TableColumn column, Clause clause) {
    return new ColumnUse(column, ColumnReference.of(column.column(), clause), false);
  }

  static ColumnUse filter(TableColumn column, Optional<PredicateKind> kind) {
    return new ColumnUse(column, new ColumnReference(column.column(), Clause.FILTER, kind), false);
  }

  static ColumnUse notNullFilter(TableColumn column) {
    return new ColumnUse(
        column, ColumnReference.filter(column.column(), PredicateKind.IS_NULL), true);
  }
}
