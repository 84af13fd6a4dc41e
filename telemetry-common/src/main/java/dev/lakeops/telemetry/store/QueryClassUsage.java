package dev.lakeops.telemetry.store;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.PredicateKind;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Queries that filtered a table the same way: the same columns with the same predicate kinds.
 *
 * @param filters the class's filters, ordered by column then predicate kind
 * @param eventCount queries of this class in the window
 * @param weightedCount the queries weighted by recency decay and scan volume
 */
public record QueryClassUsage(List<Filter> filters, long eventCount, double weightedCount) {
  public QueryClassUsage {
    filters = List.copyOf(requireNonNull(filters, "filters is null"));
    if (filters.isEmpty()) {
      throw new IllegalArgumentException("a query class has at least one filter");
    }
  }

  /** The class as text, e.g. {@code user_id EQUALITY + ts RANGE}. */
  public String description() {
    return filters.stream().map(Filter::toString).collect(Collectors.joining(" + "));
  }

  /** The filtered columns, in order, each once. */
  public List<String> columns() {
    return filters.stream().map(Filter::column).distinct().toList();
  }

  /**
   * One filter of a class.
   *
   * @param column the filtered column
   * @param predicateKind how it was filtered, when the engine said
   */
  public record Filter(String column, Optional<PredicateKind> predicateKind)
      implements Comparable<Filter> {
    public Filter {
      requireNonNull(column, "column is null");
      requireNonNull(predicateKind, "predicateKind is null");
    }

    @Override
    public int compareTo(Filter other) {
      int byColumn = column.compareTo(other.column);
      return byColumn != 0 ? byColumn : toString().compareTo(other.toString());
    }

    @Override
    public String toString() {
      return column + " " + predicateKind.map(Enum::name).orElse("UNKNOWN");
    }
  }
}
