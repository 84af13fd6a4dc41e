package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.ExpireSnapshotsCall;
import dev.lakeops.runs.MeasuredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "expire-snapshots",
    description =
        "Expire old snapshots, honouring branches, tags and their retention properties, and delete the"
            + " files no retained snapshot reaches.",
    mixinStandardHelpOptions = true)
final class ExpireSnapshotsCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to expire.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION|TIMESTAMP",
      description =
          "Expire snapshots older than this: 7d, 12h, or 2026-01-31T00:00:00Z (default: the table's"
              + " history.expire.max-snapshot-age-ms, 5 days).")
  String olderThan;

  @Option(
      names = "--retain-last",
      paramLabel = "N",
      description =
          "Keep at least N ancestors of every branch (default: history.expire.min-snapshots-to-keep, 1).")
  Integer retainLast;

  @Option(
      names = "--max-concurrent-deletes",
      paramLabel = "N",
      description =
          "Threads that read manifests and delete files (default: processors, at least 2).")
  Integer maxConcurrentDeletes;

  @Option(
      names = "--snapshot-id",
      paramLabel = "ID",
      description = "Also expire this snapshot; repeatable.")
  List<Long> snapshotIds = new ArrayList<>();

  @Option(
      names = "--clean-expired-metadata",
      description = "Also remove partition specs no kept snapshot uses.")
  boolean cleanExpiredMetadata;

  @Option(
      names = "--dry-run",
      description = "Report what would be expired and deleted; change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    ExpireSnapshotsCall call =
        ExpireSnapshotsCall.bind(
            OperationArguments.on(Host.CLI)
                .with(Operations.OLDER_THAN, olderThan)
                .with("retain_last", retainLast)
                .with(Operations.MAX_CONCURRENT_DELETES, maxConcurrentDeletes)
                .with("snapshot_ids", snapshotIds)
                .with("clean_expired_metadata", cleanExpiredMetadata)
                .with(Operations.DRY_RUN, dryRun));
    MeasuredRun<SnapshotExpiryResult> run = store.recordRun(catalog, table, dryRun, call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
