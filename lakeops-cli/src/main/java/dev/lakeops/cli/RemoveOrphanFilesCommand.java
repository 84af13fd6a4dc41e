package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveOrphanFilesCall;
import dev.lakeops.runs.MeasuredRun;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "remove-orphan-files",
    description =
        "Delete files under the table location that no snapshot, ref or metadata file references and that"
            + " are older than the cutoff.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class RemoveOrphanFilesCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
              "--older-than",
              "DURATION|TIMESTAMP",
              "Only files written before this: 5d, or 2026-01-31T00:00:00Z (default: ${DEFAULT-VALUE},"
                  + " also the safety floor)."),
          CliFlag.of(
              "--location",
              "PATH",
              "List this directory inside the table location instead of the whole table location."),
          CliFlag.switchOf("--dry-run", "List the orphans; delete nothing."),
          CliFlag.of(
              "--prefix-mismatch-mode",
              "MODE",
              "error (default: refuse), ignore (keep) or delete files whose path is referenced under"
                  + " another scheme or authority."),
          CliFlag.of(
              "--equal-schemes",
              "SCHEMES=SCHEME",
              "Schemes that name the same storage, repeatable: --equal-schemes s3a,s3n=s3 (that is the"
                  + " default)."),
          CliFlag.of(
              "--equal-authorities",
              "AUTHORITIES=AUTHORITY",
              "Authorities that name the same storage, repeatable: --equal-authorities alias=bucket."),
          CliFlag.of(
              "--max-concurrent-deletes",
              "N",
              "Threads that list directories, read manifests and delete files (default: processors,"
                  + " at least 2)."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to clean.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(names = "--force", description = "Accept an --older-than below the 3-day safety floor.")
  boolean force;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.REMOVE_ORPHAN_FILES;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    RemoveOrphanFilesCall call =
        RemoveOrphanFilesCall.bind(
            ContractOptions.given(spec, Operations.REMOVE_ORPHAN_FILES)
                .with(HostSettings.FORCE, force));
    MeasuredRun<OrphanRemovalResult> run = store.recordRun(catalog, table, call.dryRun(), call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
