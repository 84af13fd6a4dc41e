package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.QueryClassUsage;
import java.util.List;

/**
 * The advisor's proposal for one table's data layout.
 *
 * @param table the table
 * @param layout sort, Z-order, or insufficient data
 * @param columns the sort keys in order, or the Z-order columns; empty for insufficient data
 * @param confidence between 0 and 1
 * @param confident whether {@code confidence} reached the configured threshold
 * @param explanation one plain-English paragraph saying what was seen and why this layout
 * @param filterEventCount queries with filters the advice rests on
 * @param rankings every filtered column with its score, best first
 * @param recordedAs the names the matched queries were recorded under (engines name catalogs their
 *     own way)
 * @param otherTables when no query matched the table: the table names the store does hold in the
 *     window, closest to the table's name first (at most {@value #OTHER_TABLES_SHOWN})
 * @param queryClasses the queries with filters grouped by what they filtered, heaviest first
 */
public record SortAdvice(
    TableName table,
    LayoutKind layout,
    List<String> columns,
    double confidence,
    boolean confident,
    String explanation,
    long filterEventCount,
    List<ColumnRanking> rankings,
    List<TableName> recordedAs,
    List<TableName> otherTables,
    List<QueryClassUsage> queryClasses) {
  /** Table names listed at most when nothing matched. */
  public static final int OTHER_TABLES_SHOWN = 10;

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new Jdk8Module())
          .enable(SerializationFeature.INDENT_OUTPUT);

  public SortAdvice {
    requireNonNull(table, "table is null");
    requireNonNull(layout, "layout is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(explanation, "explanation is null");
    rankings = List.copyOf(requireNonNull(rankings, "rankings is null"));
    recordedAs = List.copyOf(requireNonNull(recordedAs, "recordedAs is null"));
    otherTables = List.copyOf(requireNonNull(otherTables, "otherTables is null"));
    queryClasses = List.copyOf(requireNonNull(queryClasses, "queryClasses is null"));
    if (confidence < 0 || confidence > 1) {
      throw new IllegalArgumentException("confidence must be in [0, 1]: " + confidence);
    }
  }

  /** Advice without the names recorded, other tables and query classes. */
  public SortAdvice(
      TableName table,
      LayoutKind layout,
      List<String> columns,
      double confidence,
      boolean confident,
      String explanation,
      long filterEventCount,
      List<ColumnRanking> rankings) {
    this(
        table,
        layout,
        columns,
        confidence,
        confident,
        explanation,
        filterEventCount,
        rankings,
        List.of(),
        List.of(),
        List.of());
  }

  /** Advice that declines to propose a layout, for the given reason. */
  public static SortAdvice insufficientData(
      TableName table, String reason, long filterEventCount, List<ColumnRanking> rankings) {
    return new SortAdvice(
        table,
        LayoutKind.INSUFFICIENT_DATA,
        List.of(),
        0,
        false,
        reason,
        filterEventCount,
        rankings);
  }

  /** This advice with another layout, columns, confidence and explanation; the usage stays. */
  public SortAdvice withLayout(
      LayoutKind newLayout,
      List<String> newColumns,
      double newConfidence,
      boolean newConfident,
      String newExplanation) {
    return new SortAdvice(
        table,
        newLayout,
        newColumns,
        newConfidence,
        newConfident,
        newExplanation,
        filterEventCount,
        rankings,
        recordedAs,
        otherTables,
        queryClasses);
  }

  /** The advice as indented JSON; optional values are written as the value or {@code null}. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write advice for " + table + " as JSON", e);
    }
  }
}
