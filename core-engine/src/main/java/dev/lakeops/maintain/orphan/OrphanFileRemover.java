package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import dev.lakeops.maintain.files.BatchDeleter;
import dev.lakeops.maintain.files.DeletionOutcome;
import dev.lakeops.maintain.files.FileLister;
import dev.lakeops.maintain.files.ListedFile;
import dev.lakeops.maintain.files.ParallelTasks;
import dev.lakeops.maintain.files.TableOperationsAccess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;

/**
 * The entry point to remove orphan files: mark every file the table's metadata reaches, sweep a
 * listing of the table location for old unreferenced files, mark again whatever was committed
 * during the listing, and only then delete. Fails closed: prefix mismatches stop the run unless a
 * mode says otherwise, and nothing newer than the cutoff is ever deleted.
 */
public final class OrphanFileRemover {
  public OrphanRemovalResult remove(Table table, OrphanRemovalOptions options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    long started = System.nanoTime();
    TableOperationsAccess.requireGarbageCollection(table, "remove orphan files");
    String location = listedLocation(table, options);
    Instant cutoff = Instant.now().minus(options.olderThan());
    ExecutorService executor = ParallelTasks.newPool("orphans", options.parallelism());
    try {
      ReferencedFileIndex index = new ReferencedFileIndex();
      ReachableFileCollector collector = new ReachableFileCollector(table.io(), executor, index);
      TableMetadata marked = TableOperationsAccess.refresh(table);
      collector.mark(marked);
      OrphanSweeper sweeper =
          new OrphanSweeper(
              index,
              new PrefixMatcher(options.equalSchemes(), options.equalAuthorities()),
              options.prefixMismatchMode(),
              cutoff);
      OrphanPlan plan;
      try (Stream<ListedFile> listing =
          FileLister.forFileIo(table.io(), options.parallelism()).list(location)) {
        plan = sweeper.sweep(listing);
      }
      TableMetadata latest = TableOperationsAccess.refresh(table);
      if (!latest.metadataFileLocation().equals(marked.metadataFileLocation())) {
        collector.mark(latest);
        plan = sweeper.recheck(plan);
      }
      if (options.prefixMismatchMode() == PrefixMismatchMode.ERROR
          && !plan.mismatches().isEmpty()) {
        throw mismatchError(table, index, plan.mismatches());
      }
      DeletionOutcome outcome = DeletionOutcome.NONE;
      if (!options.dryRun() && !plan.orphans().isEmpty()) {
        outcome =
            new BatchDeleter(
                    table.io(), executor, options.parallelism(), BatchDeleter.DEFAULT_BATCH_SIZE)
                .delete(plan.orphans().stream());
      }
      return new OrphanRemovalResult(
          table.name(),
          location,
          cutoff,
          plan.listedFiles(),
          index.size(),
          plan.tooNewFiles(),
          plan.mismatches().size(),
          plan.orphans(),
          outcome.deleted(),
          outcome.failed(),
          Duration.ofNanos(System.nanoTime() - started),
          options.dryRun());
    } finally {
      executor.shutdownNow();
    }
  }

  private static String listedLocation(Table table, OrphanRemovalOptions options) {
    if (options.location().isEmpty()) {
      return table.location();
    }
    String requested = options.location().get();
    if (!FileLocation.parse(requested).isWithin(FileLocation.parse(table.location()))) {
      throw new IllegalArgumentException(
          "Location "
              + requested
              + " is outside the table location "
              + table.location()
              + ": orphan removal lists only inside its table (another table's files would look unreferenced); "
              + "pass a directory under the table location");
    }
    return requested;
  }

  private static IllegalArgumentException mismatchError(
      Table table, ReferencedFileIndex index, List<String> mismatches) {
    FileLocation example = FileLocation.parse(mismatches.get(0));
    return new InvalidArgumentException(
        "Cannot remove orphan files of "
            + table.name()
            + ": "
            + mismatches.size()
            + " listed files match referenced files by path but not by scheme or authority (listed "
            + example.prefix()
            + ", referenced "
            + String.join(" or ", index.prefixesOf(example.path()))
            + "); nothing was deleted. If they are the same storage pass {equal_schemes} or"
            + " {equal_authorities}, else {prefix_mismatch_mode} ignore (keep them) or delete"
            + " (remove them)");
  }
}
