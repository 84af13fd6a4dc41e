package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.maintain.report.MaintenanceReports;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.runs.MeasuredRun;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "remove-orphan-files",
    description =
        "Delete files under the table location that no snapshot, ref or metadata file references and that"
            + " are older than the cutoff.",
    mixinStandardHelpOptions = true)
final class RemoveOrphanFilesCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>", description = "The table to clean.")
  String table;

  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--older-than",
      paramLabel = "DURATION|TIMESTAMP",
      defaultValue = "3d",
      description =
          "Only files written before this: 5d, or 2026-01-31T00:00:00Z (default: ${DEFAULT-VALUE},"
              + " also the safety floor).")
  String olderThan;

  @Option(
      names = "--location",
      paramLabel = "PATH",
      description =
          "List this directory inside the table location instead of the whole table location.")
  String location;

  @Option(names = "--dry-run", description = "List the orphans; delete nothing.")
  boolean dryRun;

  @Option(
      names = "--prefix-mismatch-mode",
      paramLabel = "MODE",
      defaultValue = "error",
      description =
          "error (default: refuse), ignore (keep) or delete files whose path is referenced under"
              + " another scheme or authority.")
  String prefixMismatchMode;

  @Option(
      names = "--equal-schemes",
      paramLabel = "SCHEMES=SCHEME",
      description =
          "Schemes that name the same storage, repeatable: --equal-schemes s3a,s3n=s3 (that is the"
              + " default).")
  Map<String, String> equalSchemes = new LinkedHashMap<>();

  @Option(
      names = "--equal-authorities",
      paramLabel = "AUTHORITIES=AUTHORITY",
      description =
          "Authorities that name the same storage, repeatable: --equal-authorities alias=bucket.")
  Map<String, String> equalAuthorities = new LinkedHashMap<>();

  @Option(
      names = "--max-concurrent-deletes",
      paramLabel = "N",
      description =
          "Threads that list directories, read manifests and delete files (default: processors,"
              + " at least 2).")
  Integer maxConcurrentDeletes;

  @Option(names = "--force", description = "Accept an --older-than below the 3-day safety floor.")
  boolean force;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    Instant now = Instant.now();
    OrphanRemovalOptions.Builder builder =
        OrphanRemovalOptions.builder()
            .olderThan(Duration.between(TimeInput.parseCutoff(olderThan, now, "--older-than"), now))
            .location(location)
            .dryRun(dryRun)
            .prefixMismatchMode(PrefixMismatchMode.parse(prefixMismatchMode))
            .equalSchemes(
                equalSchemes.isEmpty() ? OrphanRemovalOptions.DEFAULT_EQUAL_SCHEMES : equalSchemes)
            .equalAuthorities(equalAuthorities)
            .allowBelowSafetyFloor(force);
    if (maxConcurrentDeletes != null) {
      builder.parallelism(maxConcurrentDeletes);
    }
    OrphanRemovalOptions options = builder.build();
    MeasuredRun<OrphanRemovalResult> run =
        store.recordRun(
            catalog,
            table,
            dryRun,
            MaintenanceOperation.REMOVE_ORPHAN_FILES,
            loaded -> new OrphanFileRemover().remove(loaded, options));
    ReportOutput.print(
        json,
        CostFields.appendedTo(MaintenanceReports.json(run.result()), run.cost()),
        MaintenanceReports.human(run.result()));
    return 0;
  }
}
