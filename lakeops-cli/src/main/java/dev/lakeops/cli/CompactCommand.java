package dev.lakeops.cli;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.CompactCall;
import dev.lakeops.operation.call.RunSettings;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "compact",
    description = "Rewrite small files of an Iceberg table into files of the target size.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class CompactCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
              "--strategy",
              "<strategy>",
              "binpack, sort (--sort-order or the table's order), zorder (--zorder-columns COLUMNS) or auto (the sort advisor's layout when confident, else binpack)."),
          CliFlag.of("--target-file-size", "SIZE", "Target file size, e.g. 512MB."),
          CliFlag.of(
              "--memory-budget",
              "SIZE",
              "Memory budget of the rewrite (default: ${DEFAULT-VALUE}); --memory is its deprecated spelling."),
          CliFlag.of(
              "--option",
              "KEY=VALUE",
              "Iceberg rewrite_data_files option, repeatable, e.g. --option min-input-files=2"),
          CliFlag.of("--where", "EXPR", "Only files that may hold matching rows."),
          CliFlag.of("--sort-order", "ORDER", "Sort order for --strategy sort."),
          CliFlag.of(
                  "--zorder-columns",
                  "COLUMNS",
                  "Columns for --strategy zorder; --zorder is its deprecated spelling.")
              .splitAt(","),
          CliFlag.of(
              "--spill-directory",
              "DIR",
              "Where sorted runs spill (default: system temp); --spill-dir is its deprecated spelling."),
          CliFlag.of(
              "--verify",
              "MODE",
              "Prove each rewritten file group before its commit: counts, checksum or off (default: checksum for sort and zorder, counts for binpack)."),
          CliFlag.switchOf("--dry-run", "Print the plan and change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to compact.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

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

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.COMPACT;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    CompactCall call =
        CompactCall.bind(
            ContractOptions.given(spec, Operations.COMPACT)
                .with(HostSettings.TELEMETRY_STORE, telemetryStore)
                .with(HostSettings.MIN_AGE, minAge));
    Table loaded = catalog.loadTable(table);
    // refused before the store, the lock or the table is touched: a refused run writes nothing
    call.checkedOn(loaded);
    if (!call.dryRun() && QuickStart.ofThisJvm().restartForFullJit(loaded)) {
      return QuickStart.RESTART_WITH_FULL_JIT;
    }
    CompactionResult result;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      RunSettings settings =
          RunSettings.recordedBy(StoreOptions.recorder(ledger, catalog, loaded, call.dryRun()));
      if (json || call.dryRun()) {
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
