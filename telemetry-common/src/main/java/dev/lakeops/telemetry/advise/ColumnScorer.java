package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.store.ColumnClauseUsage;
import dev.lakeops.telemetry.store.TableUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Scores each filtered column of a table as a sort key: {@code score = filterWeight *
 * predicateFactor * cardinalityFactor}, ranked by descending score.
 */
final class ColumnScorer {
  /** How well each predicate kind prunes files when the table is sorted on its column. */
  static final Map<PredicateKind, Double> PREDICATE_FACTORS = predicateFactors();

  /** Predicate factor of references whose kind the engine did not report. */
  static final double UNKNOWN_PREDICATE_FACTOR = 0.7;

  /** Cardinality factor of a column with one distinct value, and the floor for any column. */
  static final double MINIMUM_CARDINALITY_FACTOR = 0.25;

  /** Distinct values, as a power of two, from which cardinality no longer lowers the score. */
  static final double FULL_CARDINALITY_BITS = 16;

  private final ColumnStatisticsSource statisticsSource;

  ColumnScorer(ColumnStatisticsSource statisticsSource) {
    this.statisticsSource = requireNonNull(statisticsSource, "statisticsSource is null");
  }

  List<ColumnRanking> rank(TableUsage usage) {
    List<ColumnClauseUsage> filters = usage.forClause(Clause.FILTER);
    Set<String> columns =
        filters.stream().map(ColumnClauseUsage::column).collect(Collectors.toSet());
    Map<String, ColumnStatistics> statistics =
        columns.isEmpty() ? Map.of() : statisticsSource.statistics(usage.table(), columns);
    List<ColumnRanking> unshared = new ArrayList<>();
    for (ColumnClauseUsage filter : filters) {
      OptionalLong distinctCount =
          Optional.ofNullable(statistics.get(filter.column()))
              .map(ColumnStatistics::distinctCount)
              .orElse(OptionalLong.empty());
      unshared.add(score(filter, distinctCount));
    }
    double total = unshared.stream().mapToDouble(ColumnRanking::score).sum();
    return unshared.stream()
        .map(ranking -> withShare(ranking, total == 0 ? 0 : ranking.score() / total))
        .sorted(
            Comparator.comparingDouble(ColumnRanking::score)
                .reversed()
                .thenComparing(ColumnRanking::column))
        .toList();
  }

  static double cardinalityFactor(OptionalLong distinctCount) {
    if (distinctCount.isEmpty()) {
      return 1.0;
    }
    double bits = Math.log(Math.max(1, distinctCount.getAsLong())) / Math.log(2);
    return MINIMUM_CARDINALITY_FACTOR
        + (1 - MINIMUM_CARDINALITY_FACTOR) * Math.min(1.0, bits / FULL_CARDINALITY_BITS);
  }

  private static ColumnRanking score(ColumnClauseUsage filter, OptionalLong distinctCount) {
    double weight = filter.weightedCount();
    double factored = filter.weightedCountOfUnknownPredicateKind() * UNKNOWN_PREDICATE_FACTOR;
    for (PredicateKind kind : PredicateKind.values()) {
      factored += filter.weightedCountOf(kind) * PREDICATE_FACTORS.get(kind);
    }
    double predicateFactor = weight == 0 ? 0 : factored / weight;
    double rangeOrEquality =
        filter.weightedCountOf(PredicateKind.EQUALITY)
            + filter.weightedCountOf(PredicateKind.IN_LIST)
            + filter.weightedCountOf(PredicateKind.RANGE);
    double cardinalityFactor = cardinalityFactor(distinctCount);
    return new ColumnRanking(
        filter.column(),
        weight * predicateFactor * cardinalityFactor,
        0,
        filter.referenceCount(),
        weight,
        predicateFactor,
        cardinalityFactor,
        weight == 0 ? 0 : rangeOrEquality / weight,
        mainPredicateKind(filter),
        distinctCount,
        filter.distinctEngines());
  }

  private static Optional<PredicateKind> mainPredicateKind(ColumnClauseUsage filter) {
    return filter.weightedCountByPredicateKind().entrySet().stream()
        .max(Map.Entry.<PredicateKind, Double>comparingByValue())
        .map(Map.Entry::getKey);
  }

  private static ColumnRanking withShare(ColumnRanking ranking, double share) {
    return new ColumnRanking(
        ranking.column(),
        ranking.score(),
        share,
        ranking.filterReferences(),
        ranking.filterWeight(),
        ranking.predicateFactor(),
        ranking.cardinalityFactor(),
        ranking.rangeOrEqualityShare(),
        ranking.mainPredicateKind(),
        ranking.distinctCount(),
        ranking.distinctEngines());
  }

  private static Map<PredicateKind, Double> predicateFactors() {
    Map<PredicateKind, Double> factors = new EnumMap<>(PredicateKind.class);
    factors.put(PredicateKind.EQUALITY, 1.0);
    factors.put(PredicateKind.RANGE, 1.0);
    factors.put(PredicateKind.IN_LIST, 0.9);
    factors.put(PredicateKind.LIKE_PREFIX, 0.8);
    factors.put(PredicateKind.IS_NULL, 0.3);
    return Map.copyOf(factors);
  }
}
