package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.ExpireSnapshotsCall;
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
    name = "expire-snapshots",
    description =
        "Expire old snapshots, honouring branches, tags and their retention properties, and delete the"
            + " files no retained snapshot reaches.",
    mixinStandardHelpOptions = true)
final class ExpireSnapshotsCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
              "--older-than",
              "DURATION|TIMESTAMP",
              "Expire snapshots older than this: 7d, 12h, or 2026-01-31T00:00:00Z (default: the table's"
                  + " history.expire.max-snapshot-age-ms, 5 days)."),
          CliFlag.of(
              "--retain-last",
              "N",
              "Keep at least N ancestors of every branch (default: history.expire.min-snapshots-to-keep, 1)."),
          CliFlag.of(
              "--max-concurrent-deletes",
              "N",
              "Threads that read manifests and delete files (default: processors, at least 2)."),
          CliFlag.of("--snapshot-id", "ID", "Also expire this snapshot; repeatable."),
          CliFlag.switchOf(
              "--clean-expired-metadata", "Also remove partition specs no kept snapshot uses."),
          CliFlag.switchOf(
              "--dry-run", "Report what would be expired and deleted; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to expire.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.EXPIRE_SNAPSHOTS;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    ExpireSnapshotsCall call =
        ExpireSnapshotsCall.bind(ContractOptions.given(spec, Operations.EXPIRE_SNAPSHOTS));
    MeasuredRun<SnapshotExpiryResult> run = store.recordRun(catalog, table, call.dryRun(), call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
