package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Folds rows read from a store into {@link TableUsage} values. The weighting runs here rather than
 * in SQL so that SQLite and PostgreSQL compute exactly the same numbers.
 */
final class UsageAggregator {
  private final UsageQuery query;
  private final Optional<TableName> reportAs;
  private final Map<String, TableAccumulator> tables = new TreeMap<>();

  /** Usage per table name as recorded. */
  UsageAggregator(UsageQuery query) {
    this(query, Optional.empty());
  }

  /** Usage of every row under one name, {@code reportAs}, whatever the rows were recorded as. */
  UsageAggregator(UsageQuery query, Optional<TableName> reportAs) {
    this.query = requireNonNull(query, "query is null");
    this.reportAs = requireNonNull(reportAs, "reportAs is null");
  }

  void add(UsageRow row) {
    TableName table = reportAs.orElse(row.table());
    tables
        .computeIfAbsent(table.toString(), name -> new TableAccumulator(table))
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
    private final Set<TableName> recordedAs =
        new TreeSet<>(Comparator.comparing(TableName::toString));
    private final Map<String, EventFilters> eventFilters = new HashMap<>();

    TableAccumulator(TableName table) {
      this.table = table;
    }

    void add(UsageRow row, double weight) {
      eventIds.add(row.eventId());
      engines.add(row.engine());
      recordedAs.add(row.table());
      if (row.clause() == Clause.FILTER) {
        filterEventIds.add(row.eventId());
        eventFilters
            .computeIfAbsent(row.eventId(), id -> new EventFilters(weight))
            .filters()
            .add(new QueryClassUsage.Filter(row.column(), row.predicateKind()));
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
          table,
          eventIds.size(),
          filterEventIds.size(),
          engines.size(),
          usages,
          List.copyOf(recordedAs),
          queryClasses());
    }

    private List<QueryClassUsage> queryClasses() {
      Map<List<QueryClassUsage.Filter>, double[]> classes = new HashMap<>();
      for (EventFilters event : eventFilters.values()) {
        double[] counts =
            classes.computeIfAbsent(
                List.copyOf(new TreeSet<>(event.filters())), key -> new double[2]);
        counts[0]++;
        counts[1] += event.weight();
      }
      List<QueryClassUsage> result = new ArrayList<>();
      classes.forEach(
          (filters, counts) ->
              result.add(new QueryClassUsage(filters, (long) counts[0], counts[1])));
      result.sort(
          Comparator.comparingDouble(QueryClassUsage::weightedCount)
              .reversed()
              .thenComparing(QueryClassUsage::description));
      return result;
    }
  }

  /** The filters of one event, and the event's weight (the same for each of its rows). */
  private record EventFilters(double weight, Set<QueryClassUsage.Filter> filters) {
    EventFilters(double weight) {
      this(weight, new HashSet<>());
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
