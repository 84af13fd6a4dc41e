package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.BatchDeleter;
import dev.lakeops.maintain.files.DeletionOutcome;
import dev.lakeops.maintain.files.FileLister;
import dev.lakeops.maintain.files.ListedFile;
import dev.lakeops.maintain.files.ParallelTasks;
import dev.lakeops.maintain.files.TableOperationsAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.iceberg.Table;

/**
 * Removes the files one run wrote under a table's location and never committed, at once rather than
 * after the orphan cleanup's age floor. Only for a run known to be over (its process is gone),
 * whose files carry a name no other run's files carry: the caller's {@code writtenByRun} selects
 * them. Fails safe like the orphan cleanup: every file any metadata of the table reaches (all
 * snapshots, statistics, the metadata log) is kept, and so is a file whose path matches a
 * referenced one with another scheme or authority.
 */
public final class UncommittedFileRemover {
  private static final int PARALLELISM = 2;

  /**
   * What one removal found and did.
   *
   * @param matching files under the table location the predicate selected
   * @param referenced of those, files the table references (committed: kept)
   * @param deleted files deleted
   * @param failed files that could not be deleted (the orphan cleanup removes them later)
   */
  public record Removal(long matching, long referenced, long deleted, long failed) {}

  public Removal remove(Table table, Predicate<String> writtenByRun) {
    requireNonNull(table, "table is null");
    requireNonNull(writtenByRun, "writtenByRun is null");
    TableOperationsAccess.requireGarbageCollection(table, "remove the files of an unfinished run");
    List<String> matching;
    try (Stream<ListedFile> listing =
        FileLister.forFileIo(table.io(), PARALLELISM).list(dataLocation(table))) {
      matching = listing.map(ListedFile::location).filter(writtenByRun).toList();
    }
    if (matching.isEmpty()) {
      return new Removal(0, 0, 0, 0);
    }
    ExecutorService executor = ParallelTasks.newPool("uncommitted", PARALLELISM);
    try {
      ReferencedFileIndex index = new ReferencedFileIndex();
      new ReachableFileCollector(table.io(), executor, index)
          .mark(TableOperationsAccess.refresh(table));
      PrefixMatcher matcher =
          new PrefixMatcher(OrphanRemovalOptions.DEFAULT_EQUAL_SCHEMES, java.util.Map.of());
      List<String> unreferenced = new ArrayList<>();
      for (String location : matching) {
        if (index.match(FileLocation.parse(location), matcher)
            == ReferencedFileIndex.Match.UNREFERENCED) {
          unreferenced.add(location);
        }
      }
      DeletionOutcome outcome =
          unreferenced.isEmpty()
              ? DeletionOutcome.NONE
              : new BatchDeleter(table.io(), executor, PARALLELISM, BatchDeleter.DEFAULT_BATCH_SIZE)
                  .delete(unreferenced.stream());
      return new Removal(
          matching.size(),
          matching.size() - unreferenced.size(),
          outcome.deleted(),
          outcome.failed());
    } finally {
      executor.shutdownNow();
    }
  }

  /**
   * Where the table's data files are written: {@code write.data.path}, else {@code
   * <location>/data}.
   */
  private static String dataLocation(Table table) {
    String configured =
        table.properties().get(org.apache.iceberg.TableProperties.WRITE_DATA_LOCATION);
    if (configured != null && !configured.isBlank()) {
      return configured;
    }
    String location = table.location();
    return (location.endsWith("/") ? location : location + "/") + "data";
  }
}
