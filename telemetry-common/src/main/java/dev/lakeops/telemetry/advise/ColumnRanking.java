package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.PredicateKind;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How one column scored as a sort key. {@code score = filterWeight * predicateFactor *
 * cardinalityFactor}.
 *
 * @param column the column
 * @param score the column's score
 * @param share the score divided by the sum of all scores, between 0 and 1
 * @param filterReferences filter references recorded, unweighted
 * @param filterWeight the filter references weighted by recency and scan volume
 * @param predicateFactor how well the column's predicates prune when sorted on, between 0 and 1
 * @param cardinalityFactor how well the column's cardinality suits sorting, between 0 and 1
 * @param rangeOrEqualityShare the part of {@code filterWeight} from equality, in-list and range
 *     predicates
 * @param mainPredicateKind the predicate kind with the most weight, when any was reported
 * @param distinctCount the distinct-count estimate the cardinality factor came from, when known
 * @param distinctEngines how many engines filtered on the column
 */
public record ColumnRanking(
    String column,
    double score,
    double share,
    long filterReferences,
    double filterWeight,
    double predicateFactor,
    double cardinalityFactor,
    double rangeOrEqualityShare,
    Optional<PredicateKind> mainPredicateKind,
    OptionalLong distinctCount,
    int distinctEngines) {
  public ColumnRanking {
    requireNonNull(column, "column is null");
    requireNonNull(mainPredicateKind, "mainPredicateKind is null");
    requireNonNull(distinctCount, "distinctCount is null");
  }
}
