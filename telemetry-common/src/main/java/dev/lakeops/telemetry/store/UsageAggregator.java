package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Folds rows read from a store into {@link TableUsage} values. The weighting runs here rather than
 * in SQL so that SQLite and PostgreSQL compute exactly the same numbers.
 */
final class UsageAggregator {
  private final UsageQuery query;
  private final Map<String, TableAccumulator> tables = new TreeMap<>();

  UsageAggregator(UsageQuery query) {
    this.query = requireNonNull(query, "query is null");
  }

  void add(UsageRow row) {
    tables
        .computeIfAbsent(row.table().toString(), name -> new TableAccumulator(row.table()))
        .add(row, query.decay(row.occurredAt()) * ScanVolumeWeight.of(row.scanVolume()));
  }

  List<TableUsage> result() {
    return tables.values().stream().map(TableAccumulator::result).toList();
  }

  private static final class TableAccumulator {
    private final TableName table;
    private final Set<String> eventIds = new HashSet<>();
    private final Set<String> filterEventIds = new HashSet<>();
    private final Set<String> engines = new HashSet<>();
    private final Map<ColumnAndClause, ColumnAccumulator> columns = new LinkedHashMap<>();

    TableAccumulator(TableName table) {
      this.table = table;
    }

    void add(UsageRow row, double weight) {
      eventIds.add(row.eventId());
      engines.add(row.engine());
      if (row.clause() == Clause.FILTER) {
        filterEventIds.add(row.eventId());
      }
      columns
          .computeIfAbsent(
              new ColumnAndClause(row.column(), row.clause()), key -> new ColumnAccumulator())
          .add(row, weight);
    }

    TableUsage result() {
      List<ColumnClauseUsage> usages = new ArrayList<>();
      columns.forEach((key, accumulator) -> usages.add(accumulator.result(key)));
      usages.sort(
          Comparator.comparingDouble(ColumnClauseUsage::weightedCount)
              .reversed()
              .thenComparing(ColumnClauseUsage::column)
              .thenComparing(usage -> usage.clause().ordinal()));
      return new TableUsage(
          table, eventIds.size(), filterEventIds.size(), engines.size(), usages);
    }
  }

  private record ColumnAndClause(String column, Clause clause) {}

  private static final class ColumnAccumulator {
    private final Set<String> engines = new HashSet<>();
    private final Map<PredicateKind, Double> byPredicateKind = new EnumMap<>(PredicateKind.class);
    private long referenceCount;
    private double weightedCount;

    void add(UsageRow row, double weight) {
      referenceCount++;
      weightedCount += weight;
      engines.add(row.engine());
      row.predicateKind().ifPresent(kind -> byPredicateKind.merge(kind, weight, Double::sum));
    }

    ColumnClauseUsage result(ColumnAndClause key) {
      return new ColumnClauseUsage(
          key.column(),
          key.clause(),
          referenceCount,
          weightedCount,
          engines.size(),
          byPredicateKind);
    }
  }
}
