package dev.lakeops.cli;

import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.RewritePositionDeletesCall;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "rewrite-position-deletes",
    description =
        "Compact the position delete files of each partition into one (v2) or into one deletion vector per data file (v3), dropping positions of data files that no longer exist.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class RewritePositionDeletesCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
              "--min-input-files",
              "N",
              "Rewrite partitions with at least this many position delete files (default: ${DEFAULT-VALUE})."),
          CliFlag.switchOf("--dry-run", "Report what would be rewritten; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to rewrite.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.REWRITE_POSITION_DELETES;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    RewritePositionDeletesCall call =
        RewritePositionDeletesCall.bind(
            ContractOptions.given(spec, Operations.REWRITE_POSITION_DELETES));
    PositionDeleteRewriteResult result =
        call.run(catalog.loadTable(table), catalog.unrecorded(table)).result();
    System.out.println(
        json ? JsonOutput.write(DeleteFileReports.json(result)) : DeleteFileReports.human(result));
    return 0;
  }
}
