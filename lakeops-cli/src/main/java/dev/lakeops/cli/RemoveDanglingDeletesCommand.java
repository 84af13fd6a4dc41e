package dev.lakeops.cli;

import dev.lakeops.deletes.DanglingDeleteResult;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RemoveDanglingDeletesCall;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "remove-dangling-deletes",
    description =
        "Remove position and equality delete files and deletion vectors that no longer apply to any live data file.",
    mixinStandardHelpOptions = true)
final class RemoveDanglingDeletesCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(CliFlag.switchOf("--dry-run", "Report the dangling delete files; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to clean.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.REMOVE_DANGLING_DELETES;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    RemoveDanglingDeletesCall call =
        RemoveDanglingDeletesCall.bind(
            ContractOptions.given(spec, Operations.REMOVE_DANGLING_DELETES));
    DanglingDeleteResult result =
        call.run(catalog.loadTable(table), catalog.unrecorded(table)).result();
    System.out.println(
        json ? JsonOutput.write(DeleteFileReports.json(result)) : DeleteFileReports.human(result));
    return 0;
  }
}
