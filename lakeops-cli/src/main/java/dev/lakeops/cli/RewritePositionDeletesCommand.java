package dev.lakeops.cli;

import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewritePositionDeletesCall;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "rewrite-position-deletes",
    description =
        "Compact the position delete files of each partition into one (v2) or into one deletion vector per data file (v3), dropping positions of data files that no longer exist.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class RewritePositionDeletesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to rewrite.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(
      names = "--min-input-files",
      paramLabel = "N",
      description =
          "Rewrite partitions with at least this many position delete files (default: ${DEFAULT-VALUE}).")
  int minInputFiles;

  @Option(names = "--dry-run", description = "Report what would be rewritten; change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    RewritePositionDeletesCall call =
        RewritePositionDeletesCall.bind(
            OperationArguments.on(Host.CLI)
                .with("min_input_files", minInputFiles)
                .with(Operations.DRY_RUN, dryRun));
    PositionDeleteRewriteResult result =
        call.run(catalog.loadTable(table), catalog.unrecorded(table)).result();
    System.out.println(
        json ? JsonOutput.write(DeleteFileReports.json(result)) : DeleteFileReports.human(result));
    return 0;
  }
}
