package dev.lakeops.cli;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.cost.CostFields;
import dev.lakeops.cost.ObjectRequestMeter;
import dev.lakeops.cost.RequestWindow;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.maintain.MaintenanceOptions;
import dev.lakeops.maintain.MaintenanceResult;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.TableMaintainer;
import dev.lakeops.maintain.report.MaintenanceReports;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
    Set<MaintenanceStep> skipped = EnumSet.noneOf(MaintenanceStep.class);
    skipped.addAll(MaintenanceStep.parseAll(skip));
    if (skipExpire) {
      skipped.add(MaintenanceStep.EXPIRE);
    }
    if (skipOrphans) {
      skipped.add(MaintenanceStep.ORPHANS);
    }
    if (skipCompact) {
      skipped.add(MaintenanceStep.COMPACT);
    }
    if (skipManifests) {
      skipped.add(MaintenanceStep.MANIFESTS);
    }
    Table loaded = catalog.loadTable(table);
    MaintenanceResult result;
    RequestWindow window = ObjectRequestMeter.process().open();
    RunCost cost;
    try (RunLedger ledger = store.openForRecording(catalog)) {
      result =
          new TableMaintainer(
                  CompactionListener.NONE,
                  StoreOptions.recorder(ledger, catalog, loaded, dryRun),
                  LockOptions.defaults().withLeaseStore(ledger.storeLocation()))
              .maintain(loaded, maintenanceOptions(skipped));
    } finally {
      cost = window.close();
    }
    System.out.println(
        json
            ? JsonOutput.write(CostFields.appendedTo(MaintenanceReports.json(result), cost))
            : MaintenanceReports.human(result));
    return 0;
  }

  /** The defaults, with the compact step verified as {@code --verify} asks. */
  private MaintenanceOptions maintenanceOptions(Set<MaintenanceStep> skipped) {
    MaintenanceOptions defaults = MaintenanceOptions.defaults(skipped, dryRun);
    return new MaintenanceOptions(
        defaults.skipped(),
        defaults.expiry(),
        defaults.orphans(),
        defaults.compaction().toBuilder().verify(verify).build(),
        defaults.manifests());
  }
}
