package dev.lakeops.cli;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.CompactCall;
import dev.lakeops.operation.call.RunSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "compact",
    description = "Rewrite small files of an Iceberg table into files of the target size.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class CompactCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to compact.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--strategy",
      description =
          "binpack, sort (--sort-order or the table's order), zorder (--zorder-columns COLUMNS) or auto (the sort advisor's layout when confident, else binpack).")
  String strategy;

  @Option(
      names = "--target-file-size",
      paramLabel = "SIZE",
      description = "Target file size, e.g. 512MB.")
  String targetFileSize;

  @Option(
      names = {"--memory-budget", "--memory"},
      paramLabel = "SIZE",
      description =
          "Memory budget of the rewrite (default: ${DEFAULT-VALUE}); --memory is its deprecated spelling.")
  String memory;

  @Option(
      names = "--option",
      paramLabel = "KEY=VALUE",
      description =
          "Iceberg rewrite_data_files option, repeatable, e.g. --option min-input-files=2")
  Map<String, String> options = new LinkedHashMap<>();

  @Option(
      names = "--where",
      paramLabel = "EXPR",
      description = "Only files that may hold matching rows.")
  String where;

  @Option(
      names = "--sort-order",
      paramLabel = "ORDER",
      description = "Sort order for --strategy sort.")
  String sortOrder;

  @Option(
      names = {"--zorder-columns", "--zorder"},
      paramLabel = "COLUMNS",
      split = ",",
      description = "Columns for --strategy zorder; --zorder is its deprecated spelling.")
  List<String> zorderColumns = new ArrayList<>();

  @Option(
      names = {"--spill-directory", "--spill-dir"},
      paramLabel = "DIR",
      description =
          "Where sorted runs spill (default: system temp); --spill-dir is its deprecated spelling.")
  Path spillDirectory;

  @Option(
      names = "--telemetry-store",
      paramLabel = "CONFIG",
      description =
          "Telemetry store of --strategy auto: sqlite:<path> or jdbc:postgresql://... (default: sqlite:~/.lakeops/telemetry.db).")
  String telemetryStore;

  @Option(
      names = "--min-age",
      paramLabel = "DURATION",
      description =
          "Leave data files committed less than this long ago alone, e.g. 15m or 1h (sets --option min-age).")
  String minAge;

  @Option(
      names = "--verify",
      paramLabel = "MODE",
      description =
          "Prove each rewritten file group before its commit: counts, checksum or off (default: checksum for sort and zorder, counts for binpack).")
  String verify;

  @Option(names = "--dry-run", description = "Print the plan and change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    CompactCall call =
        CompactCall.bind(
            OperationArguments.on(Host.CLI)
                .with("strategy", strategy)
                .with(Operations.TARGET_FILE_SIZE, targetFileSize)
                .with(Operations.MEMORY_BUDGET, memory)
                .with("options", options)
                .with("where", where)
                .with("sort_order", sortOrder)
                .with("zorder_columns", zorderColumns)
                .with("spill_directory", spillDirectory)
                .with(HostSettings.TELEMETRY_STORE, telemetryStore)
                .with(HostSettings.MIN_AGE, minAge)
                .with(Operations.VERIFY, verify)
                .with(Operations.DRY_RUN, dryRun));
    Table loaded = catalog.loadTable(table);
    // refused before the store, the lock or the table is touched: a refused run writes nothing
    call.checkedOn(loaded);
    if (!dryRun && QuickStart.ofThisJvm().restartForFullJit(loaded)) {
      return QuickStart.RESTART_WITH_FULL_JIT;
    }
    CompactionResult result;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      RunSettings settings =
          RunSettings.recordedBy(StoreOptions.recorder(ledger, catalog, loaded, dryRun));
      if (json || dryRun) {
        result = call.run(loaded, settings).result();
      } else {
        try (ProgressBarListener progress = new ProgressBarListener()) {
          result = call.run(loaded, settings.withListener(progress)).result();
        }
      }
    }
    System.out.println(
        json ? JsonOutput.write(CompactionReports.json(result)) : CompactionReports.human(result));
    return 0;
  }
}
