package dev.lakeops.cli;

import dev.lakeops.deletes.DanglingDeleteResult;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveDanglingDeletesCall;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "remove-dangling-deletes",
    description =
        "Remove position and equality delete files and deletion vectors that no longer apply to any live data file.",
    mixinStandardHelpOptions = true)
final class RemoveDanglingDeletesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to clean.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(names = "--dry-run", description = "Report the dangling delete files; change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    RemoveDanglingDeletesCall call =
        RemoveDanglingDeletesCall.bind(
            OperationArguments.on(Host.CLI).with(Operations.DRY_RUN, dryRun));
    DanglingDeleteResult result =
        call.run(catalog.loadTable(table), catalog.unrecorded(table)).result();
    System.out.println(
        json ? JsonOutput.write(DeleteFileReports.json(result)) : DeleteFileReports.human(result));
    return 0;
  }
}
