package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Operation;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "maintain",
    description =
        "Expire snapshots, remove orphan files, compact and rewrite manifests, in that order, with each"
            + " command's defaults; one combined report.",
    mixinStandardHelpOptions = true)
final class MaintainCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
                  "--skip",
                  "STEPS",
                  "Steps to skip, comma separated: expire, orphans, compact, manifests.")
              .splitAt(","),
          CliFlag.switchOf("--dry-run", "Every step reports what it would do; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to maintain.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(names = "--skip-expire", description = "Skip snapshot expiry.")
  boolean skipExpire;

  @Option(names = "--skip-orphans", description = "Skip orphan file removal.")
  boolean skipOrphans;

  @Option(names = "--skip-compact", description = "Skip compaction.")
  boolean skipCompact;

  @Option(names = "--skip-manifests", description = "Skip the manifest rewrite.")
  boolean skipManifests;

  @Option(
      names = "--verify",
      paramLabel = "MODE",
      description =
          "Prove each file group the compact step rewrites before its commit: counts (default), checksum or off.")
  String verify;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.MAINTAIN;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    OperationArguments given = ContractOptions.given(spec, Operations.MAINTAIN);
    List<Object> steps = new ArrayList<>();
    given.value("skip_steps").map(List.class::cast).ifPresent(steps::addAll);
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
        MaintainCall.bind(given.with("skip_steps", steps).with(Operations.VERIFY, verify));
    Table loaded = catalog.loadTable(table);
    MeasuredRun<MaintenanceResult> run;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      run =
          call.run(
              loaded,
              RunSettings.recordedBy(
                  StoreOptions.recorder(ledger, catalog, loaded, call.dryRun())));
    }
    System.out.println(
        json
            ? JsonOutput.write(
                CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()))
            : MaintenanceReports.human(run.result()));
    return 0;
  }
}
