package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.WriteSchemas;
import dev.lakeops.rewrite.arrow.ArrowSchemas;
import dev.lakeops.telemetry.advise.LayoutKind;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Resolves {@code --strategy auto}: asks the sort advisor, then sorts or z-orders when the advice
 * is confident and binpacks otherwise. Also binpacks when the advised columns cannot be laid out (a
 * nested schema, columns dropped since the queries ran). A telemetry store that cannot be opened
 * fails the compaction rather than silently binpacking.
 */
public final class AutoStrategy {
  private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private AutoStrategy() {}

  /** Reads the request's telemetry store (or the default one) and chooses. */
  public static AutoStrategyChoice choose(Table table, CompactionRequest request) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    try (TelemetryStore store = TelemetryStoreFactory.open(request.telemetryStore().orElse(null))) {
      long target = RewriteOptions.parse(table, request.options()).targetFileSizeBytes();
      return choose(
          table, request, TableAdvisor.withDefaults(store).adviseWithCosts(table, target).advice());
    }
  }

  /** Chooses from given advice. */
  public static AutoStrategyChoice choose(
      Table table, CompactionRequest request, SortAdvice advice) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    requireNonNull(advice, "advice is null");
    if (advice.layout() == LayoutKind.INSUFFICIENT_DATA) {
      return binpack(request, advice, "binpack: no confident layout advice. ");
    }
    if (!advice.confident()) {
      return binpack(
          request,
          advice,
          String.format(
              Locale.ROOT,
              "binpack: the advice (%s by %s) is not confident enough (confidence %.3f). ",
              advice.layout().name().toLowerCase(Locale.ROOT),
              String.join(", ", advice.columns()),
              advice.confidence()));
    }
    return layout(table, request, advice);
  }

  /**
   * The advised layout as a request to run, whatever the confidence: sort or zorder, or binpack
   * when the advice has no layout or its columns cannot be laid out.
   */
  public static AutoStrategyChoice layout(
      Table table, CompactionRequest request, SortAdvice advice) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    requireNonNull(advice, "advice is null");
    if (advice.layout() == LayoutKind.INSUFFICIENT_DATA) {
      return binpack(request, advice, "binpack: no layout advice. ");
    }
    Optional<String> unsupported = ArrowSchemas.unsupportedColumn(WriteSchemas.forTable(table));
    if (unsupported.isPresent()) {
      return binpack(
          request,
          advice,
          "binpack: sort and z-order need a flat schema of primitive columns, but the table has column "
              + unsupported.get()
              + ". ");
    }
    List<String> sortable = topLevelPrimitives(table, advice.columns(), false);
    if (sortable.isEmpty()) {
      return binpack(
          request,
          advice,
          "binpack: none of the advised columns ("
              + String.join(", ", advice.columns())
              + ") is a top-level primitive column of the table any more. ");
    }
    List<String> zorderable = topLevelPrimitives(table, advice.columns(), true);
    CompactionRequest laidOut = withAdvisedRowGroupSize(table, request);
    if (advice.layout() == LayoutKind.ZORDER && zorderable.size() >= 2) {
      CompactionRequest zorder =
          laidOut.toBuilder()
              .strategy(Strategy.ZORDER)
              .zorderColumns(zorderable)
              .sortOrder(null)
              .build();
      return new AutoStrategyChoice(
          zorder,
          choicePrefix(advice, "zorder by " + String.join(", ", zorderable)) + advice.explanation(),
          advice);
    }
    String order =
        sortable.stream().map(column -> quoted(column) + " ASC").collect(Collectors.joining(", "));
    CompactionRequest sort =
        laidOut.toBuilder()
            .strategy(Strategy.SORT)
            .sortOrder(order)
            .zorderColumns(List.of())
            .build();
    return new AutoStrategyChoice(
        sort, choicePrefix(advice, "sort by " + order) + advice.explanation(), advice);
  }

  /**
   * The request with {@code row-group-size-bytes} set to {@link AdvisedRowGroupSize} unless it sets
   * one, so that the sorted files are skippable by row group at the table's own target file size.
   */
  private static CompactionRequest withAdvisedRowGroupSize(Table table, CompactionRequest request) {
    if (request.options().containsKey(RewriteOptions.ROW_GROUP_SIZE_BYTES)) {
      return request;
    }
    long target = RewriteOptions.parse(table, request.options()).targetFileSizeBytes();
    Map<String, String> options = new LinkedHashMap<>(request.options());
    options.put(
        RewriteOptions.ROW_GROUP_SIZE_BYTES,
        String.valueOf(AdvisedRowGroupSize.of(table, target, PartitionBytes.largest(table))));
    return request.toBuilder().options(options).build();
  }

  private static AutoStrategyChoice binpack(
      CompactionRequest request, SortAdvice advice, String prefix) {
    CompactionRequest binpack =
        request.toBuilder()
            .strategy(Strategy.BINPACK)
            .sortOrder(null)
            .zorderColumns(List.of())
            .build();
    return new AutoStrategyChoice(binpack, prefix + advice.explanation(), advice);
  }

  private static String choicePrefix(SortAdvice advice, String choice) {
    return String.format(
        Locale.ROOT,
        "%s: the advice is %s (confidence %.3f). ",
        choice,
        advice.confident() ? "confident" : "not confident",
        advice.confidence());
  }

  /** The advised columns that are top-level primitive columns, in the table's spelling. */
  private static List<String> topLevelPrimitives(
      Table table, List<String> columns, boolean forZOrder) {
    return columns.stream()
        .map(column -> ColumnBounds.findField(table, column))
        .filter(field -> field != null && table.schema().columns().contains(field))
        .filter(field -> field.type().isPrimitiveType())
        .filter(field -> !forZOrder || field.type().typeId() != Type.TypeID.BOOLEAN)
        .map(Types.NestedField::name)
        .distinct()
        .toList();
  }

  private static String quoted(String column) {
    return PLAIN_IDENTIFIER.matcher(column).matches() ? column : "`" + column + "`";
  }
}
