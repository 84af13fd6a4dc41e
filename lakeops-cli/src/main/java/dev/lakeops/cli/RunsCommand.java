package dev.lakeops.cli;

import dev.lakeops.learn.RunPlanStore;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.observe.StoreSession;
import dev.lakeops.unit.TimeInput;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "runs",
    description =
        "List the run ledger: every maintenance run recorded by serve, the CLI and the engines, newest first.",
    mixinStandardHelpOptions = true)
final class RunsCommand implements Callable<Integer> {
  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--table",
      paramLabel = "T",
      description = "Only runs on this table (namespace.table).")
  String table;

  @Option(
      names = "--since",
      paramLabel = "DURATION",
      description = "Only runs started within this long, e.g. 1h or 7d.")
  String since;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "1000",
      description = "At most N runs (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    RunQuery query = RunQuery.all().withLimit(limit);
    if (catalog.hasCatalog()) {
      query = query.withCatalog(catalog.settings().name());
    }
    if (table != null) {
      query = query.withTable(table.strip());
    }
    if (since != null) {
      query = query.withSince(Instant.now().minus(TimeInput.parseDuration(since, "--since")));
    }
    List<RunRecord> runs;
    Map<String, RunPlanStore.Prediction> predictions;
    try (RunLedger ledger = store.openForReading(catalog);
        StoreSession session = StoreSession.open(store.configuration(catalog))) {
      runs = ledger.list(query);
      predictions =
          new RunPlanStore(session, catalog.hasCatalog() ? catalog.settings().name() : "")
              .predictions(runs.stream().map(RunRecord::runId).toList());
    }
    System.out.println(
        json
            ? JsonOutput.write(RunReports.json(runs, predictions))
            : RunReports.human(runs, predictions));
    return 0;
  }
}
