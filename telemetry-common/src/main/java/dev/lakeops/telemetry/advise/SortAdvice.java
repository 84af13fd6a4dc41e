package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.lakeops.telemetry.event.TableName;
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
 */
public record SortAdvice(
    TableName table,
    LayoutKind layout,
    List<String> columns,
    double confidence,
    boolean confident,
    String explanation,
    long filterEventCount,
    List<ColumnRanking> rankings) {
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
    if (confidence < 0 || confidence > 1) {
      throw new IllegalArgumentException("confidence must be in [0, 1]: " + confidence);
    }
  }

  /** Advice that declines to propose a layout, for the given reason. */
  public static SortAdvice insufficientData(
      TableName table, String reason, long filterEventCount, List<ColumnRanking> rankings) {
    return new SortAdvice(
        table, LayoutKind.INSUFFICIENT_DATA, List.of(), 0, false, reason, filterEventCount,
        rankings);
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
