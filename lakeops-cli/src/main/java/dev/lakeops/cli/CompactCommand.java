package dev.lakeops.cli;

import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CheckedCompaction;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.runs.RunRecorder;
import dev.lakeops.unit.ByteSize;
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
    mixinStandardHelpOptions = true)
final class CompactCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to compact.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--strategy",
      defaultValue = "binpack",
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
      defaultValue = "256MB",
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
    Map<String, String> rewriteOptions = new LinkedHashMap<>(options);
    if (targetFileSize != null) {
      rewriteOptions.put(
          RewriteOptions.TARGET_FILE_SIZE_BYTES,
          String.valueOf(ByteSize.parse(targetFileSize).bytes()));
    }
    if (minAge != null) {
      rewriteOptions.put(RewriteOptions.MIN_AGE, minAge);
    }
    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .strategy(Strategy.parse(strategy))
            .options(rewriteOptions)
            .where(where)
            .memoryBudget(ByteSize.parse(memory))
            .sortOrder(sortOrder)
            .zorderColumns(zorderColumns)
            .telemetryStore(telemetryStore)
            .verify(verify)
            .dryRun(dryRun);
    if (spillDirectory != null) {
      request.spillDirectory(spillDirectory);
    }
    Table loaded = catalog.loadTable(table);
    // refused before the store, the lock or the table is touched: a refused run writes nothing
    CheckedCompaction.of(loaded, request.build());
    if (!dryRun && QuickStart.ofThisJvm().restartForFullJit(loaded)) {
      return QuickStart.RESTART_WITH_FULL_JIT;
    }
    CompactionResult result;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      RunRecorder recorder = StoreOptions.recorder(ledger, catalog, loaded, dryRun);
      LockOptions locks = LockOptions.defaults().withLeaseStore(ledger.storeLocation());
      if (json || dryRun) {
        result = compact(recorder, locks, loaded, request.build(), CompactionListener.NONE);
      } else {
        try (ProgressBarListener progress = new ProgressBarListener()) {
          result = compact(recorder, locks, loaded, request.build(), progress);
        }
      }
    }
    System.out.println(
        json ? JsonOutput.write(CompactionReports.json(result)) : CompactionReports.human(result));
    return 0;
  }

  private static CompactionResult compact(
      RunRecorder recorder,
      LockOptions locks,
      Table table,
      CompactionRequest request,
      CompactionListener listener) {
    return recorder.compact(
        listener,
        meter -> new AdvisedCompactor(new TableCompactor(meter, locks)).compact(table, request));
  }
}
