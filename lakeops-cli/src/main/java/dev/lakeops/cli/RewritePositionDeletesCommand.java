package dev.lakeops.cli;

import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.deletes.PositionDeleteRewriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "rewrite-position-deletes",
    description =
        "Compact the position delete files of each partition into one (v2) or into one deletion vector per data file (v3), dropping positions of data files that no longer exist.",
    mixinStandardHelpOptions = true)
final class RewritePositionDeletesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to rewrite.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(
      names = "--min-input-files",
      paramLabel = "N",
      defaultValue = "" + PositionDeleteRewriter.MIN_INPUT_FILES_DEFAULT,
      description =
          "Rewrite partitions with at least this many position delete files (default: ${DEFAULT-VALUE}).")
  int minInputFiles;

  @Option(names = "--dry-run", description = "Report what would be rewritten; change nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    if (minInputFiles < 1) {
      throw new IllegalArgumentException(
          "--min-input-files must be at least 1, got " + minInputFiles);
    }
    PositionDeleteRewriteResult result =
        new PositionDeleteRewriter().rewrite(catalog.loadTable(table), minInputFiles, dryRun);
    System.out.println(
        json ? JsonOutput.write(DeleteFileReports.json(result)) : DeleteFileReports.human(result));
    return 0;
  }
}
