package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.InputPrefetcher;
import dev.lakeops.io.ObjectReadOptions;
import dev.lakeops.io.PrefetchInput;
import dev.lakeops.io.PrefetchingFileIO;
import dev.lakeops.io.TableWithFileIO;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;

/**
 * A run's inputs fetched ahead from an object store ({@link InputPrefetcher}), with a quarter of
 * the memory budget set aside for the fetched bytes, and the table as the rewrite sees it: reading
 * its input files from what was fetched.
 */
final class PrefetchedReads implements AutoCloseable {
  /** The part of the budget fetched bytes may hold; the rest is the groups'. */
  static final int BUDGET_DIVISOR = 4;

  private final Table table;
  private final InputPrefetcher prefetcher;
  private final BufferAllocator memory;

  private PrefetchedReads(Table table, InputPrefetcher prefetcher, BufferAllocator memory) {
    this.table = requireNonNull(table, "table is null");
    this.prefetcher = requireNonNull(prefetcher, "prefetcher is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  /**
   * Starts fetching the inputs of {@code rewrite} when its options ask for it (by default: when the
   * table lives in an object store); empty otherwise.
   */
  static Optional<PrefetchedReads> start(PlannedRewrite rewrite, MemoryBudget budget) {
    ObjectReadOptions options = rewrite.options().io();
    if (!options.prefetch()) {
      return Optional.empty();
    }
    Table table = rewrite.table();
    Path spillDirectory = rewrite.request().spillDirectory();
    try {
      Files.createDirectories(spillDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create the spill directory " + spillDirectory + ": give a writable directory", e);
    }
    BufferAllocator memory = budget.newChild("prefetch", budget.limit().bytes() / BUDGET_DIVISOR);
    try {
      InputPrefetcher prefetcher =
          InputPrefetcher.start(
              table.io(), inputs(rewrite.plan().groups()), options, memory, spillDirectory);
      Optional<Table> view =
          TableWithFileIO.of(table, new PrefetchingFileIO(table.io(), prefetcher));
      if (view.isEmpty()) {
        prefetcher.close();
        memory.close();
        return Optional.empty();
      }
      return Optional.of(new PrefetchedReads(view.get(), prefetcher, memory));
    } catch (RuntimeException e) {
      memory.close();
      throw e;
    }
  }

  /** The budget left to the groups once fetching has its part. */
  static long groupBudgetBytes(MemoryBudget budget, boolean prefetching) {
    long limit = budget.limit().bytes();
    return prefetching ? limit - limit / BUDGET_DIVISOR : limit;
  }

  /** The table whose FileIO reads the fetched inputs. */
  Table table() {
    return table;
  }

  /** The group is starting: its inputs are fetched first. */
  void groupStarting(FileGroup group) {
    prefetcher.groupStarted(group.index());
  }

  /** The group is done: what its inputs hold goes to the next ones. */
  void groupDone(FileGroup group) {
    prefetcher.releaseGroup(group.index());
  }

  @Override
  public void close() {
    try {
      prefetcher.close();
    } finally {
      memory.close();
    }
  }

  private static List<PrefetchInput> inputs(List<FileGroup> groups) {
    List<PrefetchInput> inputs = new ArrayList<>();
    for (FileGroup group : groups) {
      for (FileScanTask task : group.tasks()) {
        inputs.add(
            new PrefetchInput(
                task.file().location(), task.file().fileSizeInBytes(), group.index()));
      }
    }
    return inputs;
  }
}
