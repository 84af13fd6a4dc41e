package dev.lakeops.cli;

import dev.lakeops.deletes.DeleteFileCounts;
import dev.lakeops.deletes.equality.ConversionResult;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.ConvertEqualityDeletesCall;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "convert-equality-deletes",
    description =
        "Replace equality delete files with position delete files (v2) or deletion vectors (v3) deleting the same rows, within the memory budget.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class ConvertEqualityDeletesCommand implements Callable<Integer>, ContractCommand {
  /** The help of the contract's flags; their names, types and defaults come from the contract. */
  private static final List<CliFlag> CONTRACT_FLAGS =
      List.of(
          CliFlag.of(
              "--where",
              "EXPR",
              "Only equality deletes applying to files that may hold matching rows."),
          CliFlag.of(
              "--memory-budget",
              "SIZE",
              "Memory budget for the delete keys (default: ${DEFAULT-VALUE}); larger key sets spill."
                  + " --memory is its deprecated spelling."),
          CliFlag.of(
              "--spill-directory",
              "DIR",
              "Where delete keys spill (default: system temp); --spill-dir is its deprecated spelling."),
          CliFlag.switchOf("--dry-run", "Report what would be converted; change nothing."));

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to convert.")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Operation operation() {
    return Operations.CONVERT_EQUALITY_DELETES;
  }

  @Override
  public List<CliFlag> contractFlags() {
    return CONTRACT_FLAGS;
  }

  @Override
  public Integer call() {
    ConvertEqualityDeletesCall call =
        ConvertEqualityDeletesCall.bind(
            ContractOptions.given(spec, Operations.CONVERT_EQUALITY_DELETES));
    ConversionResult result =
        call.run(catalog.loadTable(table), catalog.unrecorded(table)).result();
    System.out.println(json ? JsonOutput.write(json(result)) : human(result));
    return 0;
  }

  static Map<String, Object> json(ConversionResult result) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", result.table());
    json.put("dry_run", result.dryRun());
    json.put("partitions", result.partitions());
    counts(json, "removed", result.removed());
    counts(json, "added", result.added());
    json.put("deleted_rows", result.deletedRows());
    json.put("spilled_bytes", result.spilledBytes());
    json.put(
        "snapshot_id", result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    json.put("seconds", result.elapsed().toNanos() / 1e9);
    return json;
  }

  static String human(ConversionResult result) {
    return String.format(
        Locale.ROOT,
        "%s %d equality delete files in %d partitions of %s%s",
        result.dryRun() ? "Would convert" : "Converted",
        result.removed().equalityDeleteFiles(),
        result.partitions(),
        result.table(),
        result.dryRun()
            ? ""
            : String.format(
                Locale.ROOT,
                " into %d position delete files and %d deletion vectors (%d deleted rows)%s",
                result.added().positionDeleteFiles(),
                result.added().deletionVectors(),
                result.deletedRows(),
                result.snapshotId().isPresent()
                    ? "; snapshot " + result.snapshotId().getAsLong()
                    : ""));
  }

  private static void counts(Map<String, Object> json, String prefix, DeleteFileCounts counts) {
    json.put(prefix + "_position_delete_files", counts.positionDeleteFiles());
    json.put(prefix + "_equality_delete_files", counts.equalityDeleteFiles());
    json.put(prefix + "_deletion_vectors", counts.deletionVectors());
  }
}
