package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewriteManifestsCall;
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
    name = "rewrite-manifests",
    description =
        "Cluster manifest entries by partition so that query planning reads fewer manifests.",
    mixinStandardHelpOptions = true)
final class RewriteManifestsCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of("--spec-id", "N", "Only manifests of this partition spec."),
          CliFlag.of(
              "--target-manifest-size",
              "SIZE",
              "Size of the new manifests, e.g. 8MB (default: commit.manifest.target-size-bytes)."),
          CliFlag.switchOf(
              "--dry-run", "Report the manifests that would be rewritten; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to rewrite.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.REWRITE_MANIFESTS;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    RewriteManifestsCall call =
        RewriteManifestsCall.bind(ContractOptions.given(spec, Operations.REWRITE_MANIFESTS));
    MeasuredRun<ManifestRewriteResult> run = store.recordRun(catalog, table, call.dryRun(), call);
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
