package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.MaintainCall;
import dev.lakeops.operation.call.RunSettings;
import dev.lakeops.runs.MeasuredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "maintain",
    description =
        "Expire snapshots, remove orphan files, compact and rewrite manifests, in that order, with each"
            + " command's defaults; one combined report.",
    mixinStandardHelpOptions = true)
final class MaintainCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to maintain.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--skip",
      paramLabel = "STEPS",
      split = ",",
      description = "Steps to skip, comma separated: expire, orphans, compact, manifests.")
  List<String> skip = new ArrayList<>();

  @Option(names = "--skip-expire", description = "Skip snapshot expiry.")
  boolean skipExpire;

  @Option(names = "--skip-orphans", description = "Skip orphan file removal.")
  boolean skipOrphans;

  @Option(names = "--skip-compact", description = "Skip compaction.")
  boolean skipCompact;

  @Option(names = "--skip-manifests", description = "Skip the manifest rewrite.")
  boolean skipManifests;

  @Option(names = "--dry-run", description = "Every step reports what it would do; change nothing.")
  boolean dryRun;

  @Option(
      names = "--verify",
      paramLabel = "MODE",
      description =
          "Prove each file group the compact step rewrites before its commit: counts (default), checksum or off.")
  String verify;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    List<String> steps = new ArrayList<>(skip);
    if (skipExpire) {
      steps.add(MaintenanceStep.EXPIRE.displayName());
    }
    if (skipOrphans) {
      steps.add(MaintenanceStep.ORPHANS.displayName());
    }
    if (skipCompact) {
      steps.add(MaintenanceStep.COMPACT.displayName());
    }
    if (skipManifests) {
      steps.add(MaintenanceStep.MANIFESTS.displayName());
    }
    MaintainCall call =
        MaintainCall.bind(
            OperationArguments.on(Host.CLI)
                .with("skip_steps", steps)
                .with(Operations.VERIFY, verify)
                .with(Operations.DRY_RUN, dryRun));
    Table loaded = catalog.loadTable(table);
    MeasuredRun<MaintenanceResult> run;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      run =
          call.run(
              loaded,
              RunSettings.recordedBy(StoreOptions.recorder(ledger, catalog, loaded, dryRun)));
    }
    System.out.println(
        json
            ? JsonOutput.write(
                CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()))
            : MaintenanceReports.human(run.result()));
    return 0;
  }
}
