package dev.lakeops.cli;

import dev.lakeops.advise.AutoStrategy;
import dev.lakeops.advise.AutoStrategyChoice;
import dev.lakeops.advise.LayoutBenefit;
import dev.lakeops.advise.LayoutSimulator;
import dev.lakeops.advise.QueryScan;
import dev.lakeops.advise.ScanMeasurement;
import dev.lakeops.advise.TableAdvice;
import dev.lakeops.advise.TableAdvisor;
import dev.lakeops.advise.WorkloadBuilder;
import dev.lakeops.advise.WorkloadQuery;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.telemetry.advise.ColumnRanking;
import dev.lakeops.telemetry.advise.SortAdvice;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "advise",
    description =
        "Propose a sort or z-order layout for a table from recorded query telemetry, and optionally"
            + " measure what it saves on a copy of the table.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class AdviseCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "<namespace.table>",
      description = "The table to advise on.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(
      names = "--telemetry-store",
      paramLabel = "CONFIG",
      description =
          "sqlite:<path> or jdbc:postgresql://... (default: sqlite:~/.lakeops/telemetry.db).")
  String telemetryStore;

  @Option(
      names = "--measure",
      description =
          "Measure bytes and files scans of the workload read now and after compacting a copy of the"
              + " table (in a temporary directory) into the advised layout; the table is not changed.")
  boolean measure;

  @Option(
      names = "--measure-filter",
      paramLabel = "EXPR",
      description =
          "A filter of the measured workload, repeatable, e.g. \"user_id = 42\" (default: filters on the"
              + " advised columns with values from the table's file bounds). Implies --measure.")
  List<String> measureFilters = new ArrayList<>();

  @Option(
      names = "--probes",
      defaultValue = "8",
      description =
          "Filter values per advised column in the default workload (default: ${DEFAULT-VALUE}).")
  int probes;

  @Option(
      names = "--target-file-size",
      paramLabel = "SIZE",
      description = "Target file size of the measured copy.")
  String targetFileSize;

  @Option(
      names = {"--memory-budget", "--memory"},
      paramLabel = "SIZE",
      description = "Memory budget of the measured copy's compaction (default: ${DEFAULT-VALUE}).")
  String memory;

  @Option(
      names = {"--spill-directory", "--spill-dir"},
      paramLabel = "DIR",
      description = "Where the copy and sorted runs go (default: system temp).")
  Path spillDirectory;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    if (probes < 1) {
      throw new IllegalArgumentException("--probes must be at least 1: " + probes);
    }
    Table loaded = catalog.loadTable(table);
    CompactionRequest base = baseRequest();
    TableAdvice tableAdvice;
    try (TelemetryStore store = TelemetryStoreFactory.open(telemetryStore)) {
      tableAdvice =
          TableAdvisor.withDefaults(store)
              .adviseWithCosts(
                  loaded, RewriteOptions.parse(loaded, base.options()).targetFileSizeBytes());
    }
    SortAdvice advice = tableAdvice.advice();
    AutoStrategyChoice auto = AutoStrategy.choose(loaded, base, advice);
    Optional<LayoutBenefit> benefit = Optional.empty();
    Optional<String> notMeasured = Optional.empty();
    if (measure || !measureFilters.isEmpty()) {
      AutoStrategyChoice layout = AutoStrategy.layout(loaded, base, advice);
      if (layout.strategy() == Strategy.BINPACK) {
        notMeasured =
            Optional.of("not measured: " + layout.reason().lines().findFirst().orElse(""));
      } else {
        List<WorkloadQuery> workload =
            measureFilters.isEmpty()
                ? new WorkloadBuilder(probes).fromAdvice(loaded, advice)
                : WorkloadBuilder.parse(measureFilters);
        benefit =
            Optional.of(
                new LayoutSimulator(base.spillDirectory())
                    .simulate(loaded, layout.request(), workload));
      }
    }
    System.out.println(
        json
            ? JsonOutput.write(json(tableAdvice, auto, benefit, notMeasured))
            : human(tableAdvice, auto, benefit, notMeasured));
    return 0;
  }

  private CompactionRequest baseRequest() {
    Map<String, String> options = new LinkedHashMap<>();
    if (targetFileSize != null) {
      options.put(
          RewriteOptions.TARGET_FILE_SIZE_BYTES,
          String.valueOf(ByteSize.parse(targetFileSize).bytes()));
    }
    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .strategy(Strategy.AUTO)
            .options(options)
            .memoryBudget(ByteSize.parse(memory))
            .telemetryStore(telemetryStore);
    if (spillDirectory != null) {
      request.spillDirectory(spillDirectory);
    }
    return request.build();
  }

  private static String human(
      TableAdvice tableAdvice,
      AutoStrategyChoice auto,
      Optional<LayoutBenefit> benefit,
      Optional<String> notMeasured) {
    SortAdvice advice = tableAdvice.advice();
    StringBuilder text = new StringBuilder();
    String layout = advice.layout().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    text.append(
        String.format(
            Locale.ROOT,
            "Advice for %s: %s%s (confidence %.3f, %s)%n",
            advice.table(),
            layout,
            advice.columns().isEmpty() ? "" : " by " + String.join(", ", advice.columns()),
            advice.confidence(),
            advice.confident() ? "confident" : "not confident"));
    text.append(advice.explanation()).append(System.lineSeparator());
    text.append("compact --strategy auto would run: ")
        .append(auto.strategyName())
        .append(auto.request().sortOrder().map(order -> " (" + order + ")").orElse(""))
        .append(
            auto.request().zorderColumns().isEmpty()
                ? ""
                : " (" + String.join(", ", auto.request().zorderColumns()) + ")");
    tableAdvice
        .chosen()
        .ifPresent(
            chosen -> text.append(System.lineSeparator()).append(QueryClassReports.human(chosen)));
    notMeasured.ifPresent(reason -> text.append(System.lineSeparator()).append(reason));
    benefit.ifPresent(found -> text.append(System.lineSeparator()).append(humanBenefit(found)));
    return text.toString();
  }

  private static String humanBenefit(LayoutBenefit benefit) {
    ScanMeasurement before = benefit.before();
    ScanMeasurement after = benefit.after();
    String row = "%-16s %10s %14s %12s %16s %12s%n";
    return String.format(
            Locale.ROOT,
            "Measured %d filters; the copy was compacted with %s:%n",
            before.queries().size(),
            benefit.compaction().strategy())
        + String.format(
            Locale.ROOT,
            row,
            "",
            "files",
            "file bytes",
            "row groups",
            "row-group bytes",
            "page bytes")
        + String.format(
            Locale.ROOT,
            row,
            "current layout",
            before.files(),
            ByteSize.ofBytes(before.fileBytes()),
            before.rowGroups(),
            ByteSize.ofBytes(before.rowGroupBytes()),
            ByteSize.ofBytes(before.pageBytes()))
        + String.format(
            Locale.ROOT,
            row,
            "advised layout",
            after.files(),
            ByteSize.ofBytes(after.fileBytes()),
            after.rowGroups(),
            ByteSize.ofBytes(after.rowGroupBytes()),
            ByteSize.ofBytes(after.pageBytes()))
        + String.format(
            Locale.ROOT,
            "Reduction: %.1f%% of file bytes, %.1f%% of row-group bytes, %.1f%% of page bytes",
            100 * benefit.fileBytesReduction(),
            100 * benefit.rowGroupBytesReduction(),
            100 * benefit.pageBytesReduction());
  }

  private static Map<String, Object> json(
      TableAdvice tableAdvice,
      AutoStrategyChoice auto,
      Optional<LayoutBenefit> benefit,
      Optional<String> notMeasured) {
    SortAdvice advice = tableAdvice.advice();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", advice.table().toString());
    json.put("layout", advice.layout().name().toLowerCase(Locale.ROOT));
    json.put("columns", advice.columns());
    json.put("confidence", advice.confidence());
    json.put("confident", advice.confident());
    json.put("explanation", advice.explanation());
    json.put("filter_events", advice.filterEventCount());
    json.put("auto_strategy", auto.strategyName());
    json.put("auto_sort_order", auto.request().sortOrder().orElse(null));
    json.put("auto_zorder_columns", auto.request().zorderColumns());
    json.put("rankings", advice.rankings().stream().map(AdviseCommand::ranking).toList());
    json.put("recorded_as", advice.recordedAs().stream().map(TableName::toString).toList());
    json.put("other_tables", advice.otherTables().stream().map(TableName::toString).toList());
    json.put(
        "auto_row_group_size_bytes",
        auto.request().options().get(RewriteOptions.ROW_GROUP_SIZE_BYTES) == null
            ? null
            : Long.parseLong(auto.request().options().get(RewriteOptions.ROW_GROUP_SIZE_BYTES)));
    json.put(
        "query_classes", tableAdvice.chosen().map(QueryClassReports::classes).orElse(List.of()));
    json.put(
        "layout_candidates",
        tableAdvice.evaluations().stream().map(QueryClassReports::candidate).toList());
    notMeasured.ifPresent(reason -> json.put("not_measured", reason));
    benefit.ifPresent(found -> json.put("measurement", measurement(found)));
    return json;
  }

  private static Map<String, Object> ranking(ColumnRanking ranking) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("column", ranking.column());
    json.put("share", ranking.share());
    json.put("score", ranking.score());
    json.put("filter_references", ranking.filterReferences());
    json.put("main_predicate_kind", ranking.mainPredicateKind().map(Enum::name).orElse(null));
    json.put(
        "distinct_count",
        ranking.distinctCount().isPresent() ? ranking.distinctCount().getAsLong() : null);
    return json;
  }

  private static Map<String, Object> measurement(LayoutBenefit benefit) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("layout", benefit.compaction().strategy());
    json.put("file_bytes_reduction", benefit.fileBytesReduction());
    json.put("row_group_bytes_reduction", benefit.rowGroupBytesReduction());
    json.put("page_bytes_reduction", benefit.pageBytesReduction());
    json.put("before", scans(benefit.before()));
    json.put("after", scans(benefit.after()));
    return json;
  }

  private static Map<String, Object> scans(ScanMeasurement measurement) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table_files", measurement.tableFiles());
    json.put("table_bytes", measurement.tableBytes());
    json.put("table_row_groups", measurement.tableRowGroups());
    json.put("files", measurement.files());
    json.put("file_bytes", measurement.fileBytes());
    json.put("row_groups", measurement.rowGroups());
    json.put("row_group_bytes", measurement.rowGroupBytes());
    json.put("page_bytes", measurement.pageBytes());
    List<Map<String, Object>> queries = new ArrayList<>();
    for (QueryScan scan : measurement.queries()) {
      Map<String, Object> query = new LinkedHashMap<>();
      query.put("filter", scan.query().description());
      query.put("files", scan.files());
      query.put("file_bytes", scan.fileBytes());
      query.put("row_groups", scan.rowGroups());
      query.put("row_group_bytes", scan.rowGroupBytes());
      query.put("row_group_rows", scan.rowGroupRows());
      query.put("page_bytes", scan.pageBytes());
      queries.add(query);
    }
    json.put("queries", queries);
    return json;
  }
}
