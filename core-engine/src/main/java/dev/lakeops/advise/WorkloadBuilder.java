package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.expression.WhereParser;
import dev.lakeops.telemetry.advise.ColumnRanking;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.store.QueryClassUsage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;

/**
 * Builds the filter workload a layout is measured against. Telemetry records which columns were
 * filtered and how (equality, range, ...), not the values, so the values are taken from the table's
 * metadata: {@code probesPerColumn} values evenly spaced over the column's range for numbers,
 * dates, times and timestamps; for other types evenly spread over the sorted distinct lower and
 * upper bounds of the data files (real values; string bounds may be truncated prefixes).
 *
 * <p>Per filtered column of the advice (the advised columns, else the best ranked ones), by its
 * main predicate kind: equality (also unknown kinds) {@code c = v}; in-list {@code c IN (v1, v2,
 * v3)}; range {@code c >= v AND c <= w}, a narrow range (1 % of a numeric range, else up to the
 * next bound); is-null {@code c IS NULL} once; like-prefix {@code c LIKE 'abc%'} with the first
 * three characters.
 */
public final class WorkloadBuilder {
  /** Filter values per column by default. */
  public static final int PROBES_PER_COLUMN_DEFAULT = 8;

  /** Columns measured when the advice names none. */
  static final int RANKED_COLUMNS_WITHOUT_ADVICE = 3;

  /** Range filters cover this fraction of a numeric column's range. */
  static final int RANGE_DIVISIONS = 100;

  private static final Set<Type.TypeID> INTERPOLATED_TYPES =
      EnumSet.of(
          Type.TypeID.INTEGER,
          Type.TypeID.LONG,
          Type.TypeID.FLOAT,
          Type.TypeID.DOUBLE,
          Type.TypeID.DATE,
          Type.TypeID.TIME,
          Type.TypeID.TIMESTAMP,
          Type.TypeID.TIMESTAMP_NANO);

  private static final int IN_LIST_VALUES = 3;
  private static final int PREFIX_LENGTH = 3;

  private final int probesPerColumn;

  public WorkloadBuilder(int probesPerColumn) {
    if (probesPerColumn < 1) {
      throw new IllegalArgumentException("probesPerColumn must be at least 1: " + probesPerColumn);
    }
    this.probesPerColumn = probesPerColumn;
  }

  /** Filters given as text ({@code --measure-filter}), parsed like {@code --where}. */
  public static List<WorkloadQuery> parse(List<String> filters) {
    return filters.stream()
        .map(text -> new WorkloadQuery(text.trim(), WhereParser.parse(text)))
        .toList();
  }

  /** The workload the advice's filters imply on {@code table}. */
  public List<WorkloadQuery> fromAdvice(Table table, SortAdvice advice) {
    requireNonNull(table, "table is null");
    requireNonNull(advice, "advice is null");
    Set<String> columns = new LinkedHashSet<>(advice.columns());
    if (columns.isEmpty()) {
      advice.rankings().stream()
          .limit(RANKED_COLUMNS_WITHOUT_ADVICE)
          .forEach(ranking -> columns.add(ranking.column()));
    }
    Map<String, ColumnBounds> bounds = ColumnBounds.collect(table, columns);
    List<WorkloadQuery> queries = new ArrayList<>();
    for (String column : columns) {
      ColumnBounds columnBounds = bounds.get(column);
      if (columnBounds != null) {
        queries.addAll(queries(columnBounds, mainKind(advice, column)));
      }
    }
    return queries;
  }

  /**
   * Filters shaped like one query class: for each of the class's filters its probes (as {@link
   * #fromAdvice} builds them for one column), the i-th probes of every filter joined by {@code
   * AND}. Empty when a filtered column is no longer a primitive column of the table.
   */
  public List<WorkloadQuery> forQueryClass(Table table, QueryClassUsage queryClass) {
    requireNonNull(table, "table is null");
    requireNonNull(queryClass, "queryClass is null");
    Map<String, ColumnBounds> bounds =
        ColumnBounds.collect(table, new LinkedHashSet<>(queryClass.columns()));
    List<List<WorkloadQuery>> perFilter = new ArrayList<>();
    for (QueryClassUsage.Filter filter : queryClass.filters()) {
      ColumnBounds columnBounds = bounds.get(filter.column());
      if (columnBounds == null) {
        return List.of();
      }
      List<WorkloadQuery> queries =
          queries(columnBounds, filter.predicateKind().orElse(PredicateKind.EQUALITY));
      if (queries.isEmpty()) {
        return List.of();
      }
      perFilter.add(queries);
    }
    int count = perFilter.stream().mapToInt(List::size).max().orElse(0);
    List<WorkloadQuery> combined = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      List<String> descriptions = new ArrayList<>();
      Expression filter = Expressions.alwaysTrue();
      for (List<WorkloadQuery> queries : perFilter) {
        WorkloadQuery query = queries.get(index % queries.size());
        descriptions.add(query.description());
        filter = Expressions.and(filter, query.filter());
      }
      combined.add(new WorkloadQuery(String.join(" AND ", descriptions), filter));
    }
    return combined;
  }

  private static PredicateKind mainKind(SortAdvice advice, String column) {
    return advice.rankings().stream()
        .filter(ranking -> ranking.column().equals(column))
        .findFirst()
        .flatMap(ColumnRanking::mainPredicateKind)
        .orElse(PredicateKind.EQUALITY);
  }

  private List<WorkloadQuery> queries(ColumnBounds bounds, PredicateKind kind) {
    String name = bounds.field().name();
    if (kind == PredicateKind.IS_NULL) {
      return List.of(new WorkloadQuery(name + " IS NULL", Expressions.isNull(name)));
    }
    List<Probe> probes = probes(bounds);
    List<WorkloadQuery> queries = new ArrayList<>();
    for (int index = 0; index < probes.size(); index++) {
      queries.add(query(bounds.type(), name, kind, probes, index));
    }
    return queries;
  }

  /**
   * Filter values: evenly spaced over the value range for numbers, dates, times and timestamps
   * (each with a narrow range of 1/{@value #RANGE_DIVISIONS} of the whole for range filters), else
   * evenly spread over the sorted distinct file bounds (each with the next bound).
   */
  private List<Probe> probes(ColumnBounds bounds) {
    Optional<ColumnBounds.BoundRange> range = bounds.range();
    List<Probe> probes = new ArrayList<>();
    if (range.isPresent() && INTERPOLATED_TYPES.contains(bounds.type().typeId())) {
      double lower = ((Number) range.get().lower()).doubleValue();
      double width = ((Number) range.get().upper()).doubleValue() - lower;
      for (int probe = 0; probe < probesPerColumn; probe++) {
        double value = lower + width * (probe + 0.5) / probesPerColumn;
        probes.add(
            new Probe(
                typed(bounds.type(), value),
                typed(bounds.type(), value + width / RANGE_DIVISIONS)));
      }
      return probes;
    }
    List<Object> values = bounds.sortedBoundValues();
    for (int probe = 0; probe < Math.min(probesPerColumn, values.size()); probe++) {
      int index =
          Math.min((int) (((probe + 0.5) / probesPerColumn) * values.size()), values.size() - 1);
      probes.add(new Probe(values.get(index), values.get(Math.min(index + 1, values.size() - 1))));
    }
    return probes;
  }

  private static Object typed(Type type, double value) {
    return switch (type.typeId()) {
      case INTEGER, DATE -> (int) Math.round(value);
      case FLOAT -> (float) value;
      case DOUBLE -> value;
      default -> Math.round(value);
    };
  }

  private static WorkloadQuery query(
      Type type, String name, PredicateKind kind, List<Probe> probes, int index) {
    Object value = probes.get(index).value();
    String text = IcebergColumnStatistics.humanString(type, value);
    switch (kind) {
      case RANGE -> {
        Object upper = probes.get(index).rangeEnd();
        return new WorkloadQuery(
            name + " BETWEEN " + text + " AND " + IcebergColumnStatistics.humanString(type, upper),
            Expressions.and(
                Expressions.greaterThanOrEqual(name, value),
                Expressions.lessThanOrEqual(name, upper)));
      }
      case IN_LIST -> {
        List<Object> listed = new ArrayList<>();
        for (int offset = 0; offset < IN_LIST_VALUES; offset++) {
          listed.add(
              probes
                  .get(
                      (index + offset * Math.max(1, probes.size() / IN_LIST_VALUES))
                          % probes.size())
                  .value());
        }
        List<String> texts =
            listed.stream().map(item -> IcebergColumnStatistics.humanString(type, item)).toList();
        return new WorkloadQuery(
            name + " IN (" + String.join(", ", texts) + ")",
            Expressions.in(name, listed.toArray()));
      }
      case LIKE_PREFIX -> {
        if (value instanceof CharSequence sequence) {
          String prefix =
              sequence.toString().substring(0, Math.min(PREFIX_LENGTH, sequence.length()));
          return new WorkloadQuery(
              name + " LIKE '" + prefix + "%'", Expressions.startsWith(name, prefix));
        }
        return equality(name, value, text);
      }
      default -> {
        return equality(name, value, text);
      }
    }
  }

  /** A filter value and the end of its narrow range. */
  private record Probe(Object value, Object rangeEnd) {}

  private static WorkloadQuery equality(String name, Object value, String text) {
    Expression filter = Expressions.equal(name, value);
    return new WorkloadQuery(name + " = " + text, filter);
  }
}
