package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.PredicateKind;
import java.util.Map;

/**
 * How one column of one table was used in one clause.
 *
 * @param column the column name
 * @param clause the clause
 * @param referenceCount how many references were recorded, unweighted
 * @param weightedCount the sum over references of recency decay times scan-volume weight
 * @param distinctEngines how many different engines made these references
 * @param weightedCountByPredicateKind the part of {@code weightedCount} per known predicate kind;
 *     references without a known kind make up the rest
 */
public record ColumnClauseUsage(
    String column,
    Clause clause,
    long referenceCount,
    double weightedCount,
    int distinctEngines,
    Map<PredicateKind, Double> weightedCountByPredicateKind) {
  public ColumnClauseUsage {
    requireNonNull(column, "column is null");
    requireNonNull(clause, "clause is null");
    weightedCountByPredicateKind =
        Map.copyOf(
            requireNonNull(weightedCountByPredicateKind, "weightedCountByPredicateKind is null"));
  }

  /** The weighted count of references whose predicate kind is {@code kind}. */
  public double weightedCountOf(PredicateKind kind) {
    return weightedCountByPredicateKind.getOrDefault(kind, 0.0);
  }

  /** The weighted count of references whose predicate kind the engine did not report. */
  public double weightedCountOfUnknownPredicateKind() {
    double known =
        weightedCountByPredicateKind.values().stream().mapToDouble(Double::doubleValue).sum();
    return Math.max(0.0, weightedCount - known);
  }
}
