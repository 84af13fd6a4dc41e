package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.expression.WhereParser;
import dev.lakeops.telemetry.advise.ColumnRanking;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.PredicateKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;

/**
 * Builds the filter workload a layout is measured against. Telemetry records which columns were
 * filtered and how (equality, range, ...), not the values, so the values are taken from the table:
 * {@code probesPerColumn} values evenly spread over the sorted distinct lower and upper bounds of
 * the data files (real values of the column; string bounds may be truncated prefixes).
 *
 * <p>Per filtered column of the advice (the advised columns, else the best ranked ones), by its main
 * predicate kind: equality (also unknown kinds) {@code c = v}; in-list {@code c IN (v1, v2, v3)};
 * range {@code c >= v AND c <= w} with {@code w} the next distinct bound, a narrow range; is-null
 * {@code c IS NULL} once; like-prefix {@code c LIKE 'abc%'} with the first three characters.
 */
public final class WorkloadBuilder {
  /** Filter values per column by default. */
  public static final int PROBES_PER_COLUMN_DEFAULT = 8;

  /** Columns measured when the advice names none. */
  static final int RANKED_COLUMNS_WITHOUT_ADVICE = 3;

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
    return filters.stream().map(text -> new WorkloadQuery(text.trim(), WhereParser.parse(text))).toList();
  }

  /** The workload the advice's filters imply on {@code table}. */
  public List<WorkloadQuery> fromAdvice(Table table, SortAdvice advice) {
    requireNonNull(table, "table is null");
    requireNonNull(advice, "advice is null");
    Set<String> columns = new LinkedHashSet<>(advice.columns());
    if (columns.isEmpty()) {
      advice.rankings().stream().limit(RANKED_COLUMNS_WITHOUT_ADVICE).forEach(ranking -> columns.add(ranking.column()));
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
    List<Object> values = bounds.sortedBoundValues();
    List<WorkloadQuery> queries = new ArrayList<>();
    for (int probe = 0; probe < Math.min(probesPerColumn, values.size()); probe++) {
      int index = (int) (((probe + 0.5) / probesPerColumn) * values.size());
      Object value = values.get(Math.min(index, values.size() - 1));
      Object next = values.get(Math.min(index + 1, values.size() - 1));
      queries.add(query(bounds.type(), name, kind, value, next, values, index));
    }
    return queries;
  }

  private static WorkloadQuery query(
      Type type, String name, PredicateKind kind, Object value, Object next, List<Object> values, int index) {
    String text = IcebergColumnStatistics.humanString(type, value);
    switch (kind) {
      case RANGE -> {
        String upper = IcebergColumnStatistics.humanString(type, next);
        return new WorkloadQuery(
            name + " BETWEEN " + text + " AND " + upper,
            Expressions.and(Expressions.greaterThanOrEqual(name, value), Expressions.lessThanOrEqual(name, next)));
      }
      case IN_LIST -> {
        List<Object> listed = new ArrayList<>();
        for (int offset = 0; offset < IN_LIST_VALUES; offset++) {
          listed.add(values.get((index + offset * (values.size() / IN_LIST_VALUES + 1)) % values.size()));
        }
        List<String> texts = listed.stream().map(item -> IcebergColumnStatistics.humanString(type, item)).toList();
        return new WorkloadQuery(name + " IN (" + String.join(", ", texts) + ")", Expressions.in(name, listed.toArray()));
      }
      case LIKE_PREFIX -> {
        if (value instanceof CharSequence sequence) {
          String prefix = sequence.toString().substring(0, Math.min(PREFIX_LENGTH, sequence.length()));
          return new WorkloadQuery(name + " LIKE '" + prefix + "%'", Expressions.startsWith(name, prefix));
        }
        return equality(name, value, text);
      }
      default -> {
        return equality(name, value, text);
      }
    }
  }

  private static WorkloadQuery equality(String name, Object value, String text) {
    Expression filter = Expressions.equal(name, value);
    return new WorkloadQuery(name + " = " + text, filter);
  }
}
