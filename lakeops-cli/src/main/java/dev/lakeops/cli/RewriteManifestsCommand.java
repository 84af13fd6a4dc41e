package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewriteManifestsCall;
import dev.lakeops.runs.MeasuredRun;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "rewrite-manifests",
    description =
        "Cluster manifest entries by partition so that query planning reads fewer manifests.",
    mixinStandardHelpOptions = true)
final class RewriteManifestsCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to rewrite.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--spec-id",
      paramLabel = "N",
      description = "Only manifests of this partition spec.")
  Integer specId;

  @Option(
      names = "--target-manifest-size",
      paramLabel = "SIZE",
      description =
          "Size of the new manifests, e.g. 8MB (default: commit.manifest.target-size-bytes).")
  String targetManifestSize;

  @Option(
      names = "--dry-run",
      description = "Report the manifests that would be rewritten; change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    RewriteManifestsCall call =
        RewriteManifestsCall.bind(
            OperationArguments.on(Host.CLI)
                .with("spec_id", specId)
                .with("target_manifest_size", targetManifestSize)
                .with(Operations.DRY_RUN, dryRun));
    MeasuredRun<ManifestRewriteResult> run = store.recordRun(catalog, table, dryRun, call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
