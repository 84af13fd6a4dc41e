package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveOrphanFilesCall;
import dev.lakeops.runs.MeasuredRun;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "remove-orphan-files",
    description =
        "Delete files under the table location that no snapshot, ref or metadata file references and that"
            + " are older than the cutoff.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class RemoveOrphanFilesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to clean.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION|TIMESTAMP",
      description =
          "Only files written before this: 5d, or 2026-01-31T00:00:00Z (default: ${DEFAULT-VALUE},"
              + " also the safety floor).")
  String olderThan;

  @Option(
      names = "--location",
      paramLabel = "PATH",
      description =
          "List this directory inside the table location instead of the whole table location.")
  String location;

  @Option(names = "--dry-run", description = "List the orphans; delete nothing.")
  boolean dryRun;

  @Option(
      names = "--prefix-mismatch-mode",
      paramLabel = "MODE",
      description =
          "error (default: refuse), ignore (keep) or delete files whose path is referenced under"
              + " another scheme or authority.")
  String prefixMismatchMode;

  @Option(
      names = "--equal-schemes",
      paramLabel = "SCHEMES=SCHEME",
      description =
          "Schemes that name the same storage, repeatable: --equal-schemes s3a,s3n=s3 (that is the"
              + " default).")
  Map<String, String> equalSchemes = new LinkedHashMap<>();

  @Option(
      names = "--equal-authorities",
      paramLabel = "AUTHORITIES=AUTHORITY",
      description =
          "Authorities that name the same storage, repeatable: --equal-authorities alias=bucket.")
  Map<String, String> equalAuthorities = new LinkedHashMap<>();

  @Option(
      names = "--max-concurrent-deletes",
      paramLabel = "N",
      description =
          "Threads that list directories, read manifests and delete files (default: processors,"
              + " at least 2).")
  Integer maxConcurrentDeletes;

  @Option(names = "--force", description = "Accept an --older-than below the 3-day safety floor.")
  boolean force;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    RemoveOrphanFilesCall call =
        RemoveOrphanFilesCall.bind(
            OperationArguments.on(Host.CLI)
                .with(Operations.OLDER_THAN, olderThan)
                .with("location", location)
                .with(Operations.DRY_RUN, dryRun)
                .with("prefix_mismatch_mode", prefixMismatchMode)
                .with("equal_schemes", equalSchemes)
                .with("equal_authorities", equalAuthorities)
                .with(Operations.MAX_CONCURRENT_DELETES, maxConcurrentDeletes)
                .with(HostSettings.FORCE, force));
    MeasuredRun<OrphanRemovalResult> run = store.recordRun(catalog, table, dryRun, call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
