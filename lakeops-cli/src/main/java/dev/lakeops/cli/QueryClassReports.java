package dev.lakeops.cli;

import dev.lakeops.advise.LayoutEvaluation;
import dev.lakeops.advise.QueryClassEstimate;
import dev.lakeops.unit.ByteSize;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The per-query-class figures of {@code advise}, as a table and as JSON. */
final class QueryClassReports {
  private QueryClassReports() {}

  static String human(LayoutEvaluation evaluation) {
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "Expected change per query class under %s (bytes one query reads):%n",
            evaluation.candidate().description()));
    String row = "%-40s %7s %12s %12s %9s%n";
    text.append(String.format(Locale.ROOT, row, "query class", "share", "now", "after", "change"));
    for (QueryClassEstimate estimate : evaluation.classes()) {
      text.append(
          String.format(
              Locale.ROOT,
              row,
              estimate.queryClass().description(),
              String.format(Locale.ROOT, "%.1f%%", 100 * estimate.share()),
              estimate.probes() == 0 ? "-" : ByteSize.ofBytes(estimate.bytesNow()).toString(),
              estimate.probes() == 0 ? "-" : ByteSize.ofBytes(estimate.bytesAfter()).toString(),
              estimate.probes() == 0
                  ? "-"
                  : String.format(Locale.ROOT, "%+.1f%%", estimate.changePercent())));
    }
    text.append(
        String.format(
            Locale.ROOT, "All classes, weighted by share: %+.1f%%", -100 * evaluation.reduction()));
    return text.toString();
  }

  static List<Map<String, Object>> classes(LayoutEvaluation evaluation) {
    return evaluation.classes().stream().map(QueryClassReports::queryClass).toList();
  }

  static Map<String, Object> candidate(LayoutEvaluation evaluation) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("layout", evaluation.candidate().layout().name().toLowerCase(Locale.ROOT));
    json.put("columns", evaluation.candidate().columns());
    json.put("weighted_bytes_now", Math.round(evaluation.weightedBytesNow()));
    json.put("weighted_bytes_after", Math.round(evaluation.weightedBytesAfter()));
    json.put("change_percent", -100 * evaluation.reduction());
    json.put("acceptable", evaluation.acceptable());
    json.put(
        "worsened_classes",
        evaluation.worsened().stream()
            .map(estimate -> estimate.queryClass().description())
            .toList());
    json.put("query_classes", classes(evaluation));
    return json;
  }

  private static Map<String, Object> queryClass(QueryClassEstimate estimate) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("query_class", estimate.queryClass().description());
    json.put("columns", estimate.queryClass().columns());
    json.put(
        "predicate_kinds",
        estimate.queryClass().filters().stream()
            .map(filter -> filter.predicateKind().map(Enum::name).orElse(null))
            .toList());
    json.put("queries", estimate.queryClass().eventCount());
    json.put("share", estimate.share());
    json.put("probes", estimate.probes());
    json.put("bytes_read_now", estimate.probes() == 0 ? null : estimate.bytesNow());
    json.put("bytes_read_after", estimate.probes() == 0 ? null : estimate.bytesAfter());
    json.put("change_percent", estimate.probes() == 0 ? null : estimate.changePercent());
    return json;
  }
}
