package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.LayoutKind;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.advise.WorkloadConfidence;
import dev.lakeops.telemetry.store.QueryClassUsage;
import dev.lakeops.unit.ByteSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Weighs layouts against every recorded query class, not only the top column's: for each class a
 * workload of filters shaped like it ({@link WorkloadBuilder#forQueryClass}), what those read now
 * ({@link ScanMeasurer}) and what they would read under each candidate layout ({@link
 * LayoutCostModel}). Candidates: a sort by each of the (up to three) leading columns of the
 * significant classes, a sort by the first two in either order, and a Z-order of two and of three,
 * besides the ranking's own proposal.
 *
 * <p>A class is significant with at least {@value #SIGNIFICANT_SHARE} of the weighted queries. A
 * layout is acceptable when no significant class would read more than {@value #MAXIMUM_WORSENING}
 * times what it reads now. With two or more significant classes the acceptable layout with the
 * fewest weighted bytes is advised, if it saves at least {@value #MINIMUM_REDUCTION} of them; its
 * confidence is the ranking's, or the data factor of the queries seen when that is higher (the
 * workload the estimate rests on). Otherwise the advice is not confident, and says which class each
 * layout would hurt. With one significant class the ranking's proposal stands.
 */
final class WorkloadLayoutChooser {
  static final double SIGNIFICANT_SHARE = 0.1;
  static final double MAXIMUM_WORSENING = 1.5;
  static final double MINIMUM_REDUCTION = 0.1;
  static final int MAXIMUM_COLUMNS = 3;

  private final int probes;

  WorkloadLayoutChooser(int probes) {
    this.probes = probes;
  }

  TableAdvice choose(Table table, SortAdvice advice, long targetFileSizeBytes) {
    requireNonNull(table, "table is null");
    requireNonNull(advice, "advice is null");
    if (advice.layout() == LayoutKind.INSUFFICIENT_DATA
        || advice.queryClasses().isEmpty()
        || table.currentSnapshot() == null) {
      return new TableAdvice(advice, List.of(), Optional.empty());
    }
    List<QueryClassUsage> classes = advice.queryClasses();
    double totalWeight = classes.stream().mapToDouble(QueryClassUsage::weightedCount).sum();
    List<String> columns = candidateColumns(table, advice, classes, totalWeight);
    Optional<LayoutCandidate> ranked = rankedCandidate(table, advice);
    if (columns.isEmpty() || ranked.isEmpty()) {
      return new TableAdvice(advice, List.of(), Optional.empty());
    }
    WorkloadBuilder builder = new WorkloadBuilder(probes);
    List<List<WorkloadQuery>> workloads =
        classes.stream().map(queryClass -> builder.forQueryClass(table, queryClass)).toList();
    ScanMeasurement now =
        ScanMeasurer.rowGroupsOnly()
            .measure(table, workloads.stream().flatMap(List::stream).toList());
    List<Types.NestedField> sampled = sampledFields(table, classes);
    ColumnSample sample = ColumnSample.read(table, sampled);
    long largestPartition =
        sample.partitions().stream().mapToLong(ColumnSample.PartitionSample::bytes).max().orElse(1);
    LayoutCostModel model =
        new LayoutCostModel(
            table.schema(),
            sample,
            AdvisedRowGroupSize.unitBytes(table, targetFileSizeBytes, largestPartition));
    List<LayoutEvaluation> evaluations = new ArrayList<>();
    for (LayoutCandidate candidate : candidates(columns, ranked.get(), table)) {
      evaluations.add(evaluate(candidate, classes, totalWeight, workloads, now, model));
    }
    evaluations.sort(
        Comparator.comparingDouble(LayoutEvaluation::weightedBytesAfter)
            .thenComparingInt(evaluation -> evaluation.candidate().columns().size())
            .thenComparing(evaluation -> evaluation.candidate().layout()));
    LayoutEvaluation rankedEvaluation =
        evaluations.stream()
            .filter(evaluation -> evaluation.candidate().equals(ranked.get()))
            .findFirst()
            .orElseThrow();
    long significant =
        classes.stream()
            .filter(queryClass -> queryClass.weightedCount() / totalWeight >= SIGNIFICANT_SHARE)
            .count();
    if (significant <= 1) {
      return new TableAdvice(
          advice.withLayout(
              advice.layout(),
              advice.columns(),
              advice.confidence(),
              advice.confident(),
              advice.explanation() + describe(rankedEvaluation)),
          evaluations,
          Optional.of(rankedEvaluation));
    }
    Optional<LayoutEvaluation> best =
        evaluations.stream()
            .filter(LayoutEvaluation::acceptable)
            .filter(evaluation -> evaluation.reduction() >= MINIMUM_REDUCTION)
            .findFirst();
    if (best.isEmpty()) {
      return new TableAdvice(
          advice.withLayout(
              advice.layout(),
              advice.columns(),
              advice.confidence(),
              false,
              rankingOnly(advice.explanation())
                  + describe(rankedEvaluation)
                  + noGoodLayout(evaluations)),
          evaluations,
          Optional.of(rankedEvaluation));
    }
    LayoutEvaluation chosen = best.get();
    double confidence =
        Math.max(
            advice.confidence(),
            round(WorkloadConfidence.dataFactor(1.0, advice.filterEventCount())));
    String why =
        chosen.candidate().equals(ranked.get())
            ? ""
            : String.format(
                Locale.ROOT,
                " Advised %s instead of %s: %s",
                chosen.candidate().description(),
                ranked.get().description(),
                rankedEvaluation.acceptable()
                    ? String.format(
                        Locale.ROOT,
                        "it reads %.0f %% fewer bytes over all query classes.",
                        100 * chosen.reduction())
                    : "that would make " + worsenedText(rankedEvaluation) + ".");
    return new TableAdvice(
        advice.withLayout(
            chosen.candidate().layout(),
            chosen.candidate().columns(),
            confidence,
            confidence >= 0.6,
            advice.explanation() + why + describe(chosen)),
        evaluations,
        Optional.of(chosen));
  }

  private LayoutEvaluation evaluate(
      LayoutCandidate candidate,
      List<QueryClassUsage> classes,
      double totalWeight,
      List<List<WorkloadQuery>> workloads,
      ScanMeasurement now,
      LayoutCostModel model) {
    List<QueryClassEstimate> estimates = new ArrayList<>();
    List<QueryClassEstimate> worsened = new ArrayList<>();
    double weightedNow = 0;
    double weightedAfter = 0;
    int offset = 0;
    for (int index = 0; index < classes.size(); index++) {
      List<WorkloadQuery> workload = workloads.get(index);
      double share = classes.get(index).weightedCount() / totalWeight;
      long bytesNow = 0;
      long bytesAfter = 0;
      if (!workload.isEmpty()) {
        long sum = 0;
        for (QueryScan scan : now.queries().subList(offset, offset + workload.size())) {
          sum += scan.rowGroupBytes();
        }
        bytesNow = sum / workload.size();
        bytesAfter = Math.round(model.shareRead(candidate, workload) * now.tableBytes());
      }
      offset += workload.size();
      QueryClassEstimate estimate =
          new QueryClassEstimate(classes.get(index), share, workload.size(), bytesNow, bytesAfter);
      estimates.add(estimate);
      weightedNow += share * bytesNow;
      weightedAfter += share * bytesAfter;
      if (share >= SIGNIFICANT_SHARE
          && !workload.isEmpty()
          && bytesAfter > MAXIMUM_WORSENING * bytesNow) {
        worsened.add(estimate);
      }
    }
    return new LayoutEvaluation(candidate, estimates, weightedNow, weightedAfter, worsened);
  }

  /** The leading columns (by ranking) of the significant classes that are top-level primitives. */
  private static List<String> candidateColumns(
      Table table, SortAdvice advice, List<QueryClassUsage> classes, double totalWeight) {
    Set<String> significantColumns = new LinkedHashSet<>();
    classes.stream()
        .filter(queryClass -> queryClass.weightedCount() / totalWeight >= SIGNIFICANT_SHARE)
        .forEach(queryClass -> significantColumns.addAll(queryClass.columns()));
    List<String> columns = new ArrayList<>();
    advice
        .rankings()
        .forEach(
            ranking -> {
              if (significantColumns.contains(ranking.column())
                  && isTopLevelPrimitive(table, ranking.column())
                  && columns.size() < MAXIMUM_COLUMNS) {
                columns.add(ColumnBounds.findField(table, ranking.column()).name());
              }
            });
    return columns;
  }

  private static Optional<LayoutCandidate> rankedCandidate(Table table, SortAdvice advice) {
    List<String> columns =
        advice.columns().stream()
            .filter(column -> isTopLevelPrimitive(table, column))
            .map(column -> ColumnBounds.findField(table, column).name())
            .toList();
    if (columns.isEmpty() || (advice.layout() == LayoutKind.ZORDER && columns.size() < 2)) {
      return Optional.empty();
    }
    return Optional.of(new LayoutCandidate(advice.layout(), columns));
  }

  private static List<LayoutCandidate> candidates(
      List<String> columns, LayoutCandidate ranked, Table table) {
    Set<LayoutCandidate> candidates = new LinkedHashSet<>();
    candidates.add(ranked);
    columns.forEach(
        column -> candidates.add(new LayoutCandidate(LayoutKind.SORT, List.of(column))));
    if (columns.size() >= 2) {
      candidates.add(new LayoutCandidate(LayoutKind.SORT, List.of(columns.get(0), columns.get(1))));
      candidates.add(new LayoutCandidate(LayoutKind.SORT, List.of(columns.get(1), columns.get(0))));
      List<String> zorderable =
          columns.stream().filter(column -> !isBoolean(table, column)).toList();
      if (zorderable.size() >= 2) {
        candidates.add(new LayoutCandidate(LayoutKind.ZORDER, zorderable.subList(0, 2)));
      }
      if (zorderable.size() >= 3) {
        candidates.add(new LayoutCandidate(LayoutKind.ZORDER, zorderable.subList(0, 3)));
      }
    }
    return List.copyOf(candidates);
  }

  private static List<Types.NestedField> sampledFields(Table table, List<QueryClassUsage> classes) {
    Set<Types.NestedField> fields = new LinkedHashSet<>();
    for (QueryClassUsage queryClass : classes) {
      for (String column : queryClass.columns()) {
        if (isTopLevelPrimitive(table, column)) {
          fields.add(ColumnBounds.findField(table, column));
        }
      }
    }
    return List.copyOf(fields);
  }

  private static boolean isTopLevelPrimitive(Table table, String column) {
    Types.NestedField field = ColumnBounds.findField(table, column);
    return field != null
        && table.schema().columns().contains(field)
        && field.type().isPrimitiveType();
  }

  private static boolean isBoolean(Table table, String column) {
    return ColumnBounds.findField(table, column).type().typeId() == Type.TypeID.BOOLEAN;
  }

  private static String describe(LayoutEvaluation evaluation) {
    String perClass =
        evaluation.classes().stream()
            .filter(estimate -> estimate.probes() > 0)
            .map(
                estimate ->
                    String.format(
                        Locale.ROOT,
                        "%s (%.0f %% of queries) %s -> %s",
                        estimate.queryClass().description(),
                        100 * estimate.share(),
                        ByteSize.ofBytes(estimate.bytesNow()),
                        ByteSize.ofBytes(estimate.bytesAfter())))
            .collect(Collectors.joining("; "));
    return String.format(
        Locale.ROOT,
        " Per query class, bytes one query reads now -> under %s (estimated): %s.",
        evaluation.candidate().description(),
        perClass);
  }

  private static String noGoodLayout(List<LayoutEvaluation> evaluations) {
    String hurt =
        evaluations.stream()
            .filter(evaluation -> !evaluation.acceptable())
            .map(
                evaluation ->
                    evaluation.candidate().description()
                        + " would make "
                        + worsenedText(evaluation))
            .collect(Collectors.joining("; "));
    return String.format(
        Locale.ROOT,
        " Not confident: no layout weighed saves at least %.0f %% of the bytes read without making a query class"
            + " with at least %.0f %% of the queries read more than %.1f times what it reads now%s.",
        100 * MINIMUM_REDUCTION,
        100 * SIGNIFICANT_SHARE,
        MAXIMUM_WORSENING,
        hurt.isEmpty() ? "" : " (" + hurt + ")");
  }

  /** The ranking's explanation, its closing "(confident)." marked as the ranking's alone. */
  private static String rankingOnly(String explanation) {
    String confident = " (confident).";
    return explanation.endsWith(confident)
        ? explanation.substring(0, explanation.length() - confident.length())
            + " from the column ranking alone."
        : explanation;
  }

  private static String worsenedText(LayoutEvaluation evaluation) {
    return evaluation.worsened().stream()
        .map(
            estimate ->
                String.format(
                    Locale.ROOT,
                    "%s read %.1fx more",
                    estimate.queryClass().description(),
                    estimate.ratio()))
        .collect(Collectors.joining(", "));
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
