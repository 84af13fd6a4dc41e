package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.MemoryBudgetExceededException;
import dev.lakeops.deletes.DeleteFileCounts;
import dev.lakeops.expression.WhereParser;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.rewrite.OutputCleaner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Converts equality deletes to position deletes: each equality delete file (optionally only those
 * applying to data files that match a filter) is resolved, within the memory budget, to the row
 * positions it deletes in every data file it applies to; the positions are written as one position
 * delete file per partition (v2) or one deletion vector per data file (v3, merged with the file's
 * existing deletion vector, which it replaces); one {@link RowDelta} then adds them and removes the
 * equality delete files. The new files get the commit's (higher) sequence number, which applies
 * them to exactly the data files they name. The commit validates from the planned snapshot that
 * every data file the equality deletes applied to still exists (a concurrent compaction with an
 * older sequence number would otherwise resurrect rows); after a clean failure the new files are
 * deleted, after an unknown commit state they are kept.
 */
public final class EqualityDeleteConverter {
  public ConversionResult convert(Table table, ConversionOptions options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    long started = System.nanoTime();
    Expression filter = WhereParser.parse(options.where().orElse(null));
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return empty(table, started, options.dryRun());
    }
    Map<String, DeleteFile> converted = equalityDeletes(table, snapshot, filter);
    if (converted.isEmpty()) {
      return empty(table, started, options.dryRun());
    }
    List<List<FileScanTask>> partitions = tasksByPartition(table, snapshot, converted.keySet());
    if (options.dryRun()) {
      return new ConversionResult(
          table.name(),
          partitions.size(),
          DeleteFileCounts.of(converted.values()),
          DeleteFileCounts.NONE,
          0,
          0,
          OptionalLong.empty(),
          elapsed(started),
          true);
    }
    PositionDeleteOutput output = new PositionDeleteOutput(table, outputFiles(table));
    long deletedRows = 0;
    long spilledBytes = 0;
    Set<String> targetFiles = new LinkedHashSet<>();
    try (MemoryBudget budget = new MemoryBudget(options.memoryBudget())) {
      long share = budget.limit().bytes();
      for (int index = 0; index < partitions.size(); index++) {
        List<FileScanTask> tasks = partitions.get(index);
        tasks.forEach(task -> targetFiles.add(task.file().location()));
        try (BufferAllocator allocator =
                budget.newChild("convert-equality-deletes-" + index, share);
            ResolvedEqualityDeletes resolved =
                new EqualityDeleteResolver(table, allocator, share / 4, options.spillDirectory())
                    .resolve(tasks, delete -> converted.containsKey(delete.location()))) {
          deletedRows += resolved.deletedRows();
          spilledBytes += resolved.spilledBytes();
          output.write(tasks, resolved);
        }
      }
    } catch (OutOfMemoryException e) {
      IllegalStateException failure =
          new MemoryBudgetExceededException(
              "Resolving the equality deletes of "
                  + table.name()
                  + " needed more than the "
                  + options.memoryBudget()
                  + " budget; the table is unchanged — raise {memory_budget}",
              e);
      OutputCleaner.deleteQuietly(table.io(), output.added(), failure);
      throw failure;
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), output.added(), e);
      throw e;
    }
    long snapshotId = commit(table, snapshot, converted.values(), output, targetFiles);
    List<DeleteFile> removed = new ArrayList<>(converted.values());
    removed.addAll(output.replaced());
    return new ConversionResult(
        table.name(),
        partitions.size(),
        DeleteFileCounts.of(removed),
        DeleteFileCounts.of(output.added()),
        deletedRows,
        spilledBytes,
        OptionalLong.of(snapshotId),
        elapsed(started),
        false);
  }

  private static long commit(
      Table table,
      Snapshot snapshot,
      Iterable<DeleteFile> converted,
      PositionDeleteOutput output,
      Set<String> targetFiles) {
    RowDelta delta =
        table
            .newRowDelta()
            .validateFromSnapshot(snapshot.snapshotId())
            .validateDataFilesExist(targetFiles)
            .validateDeletedFiles();
    output.added().forEach(delta::addDeletes);
    converted.forEach(delta::removeDeletes);
    output.replaced().forEach(delta::removeDeletes);
    delta.set("lakeops.operation", MaintenanceOperation.CONVERT_EQUALITY_DELETES.commandName());
    try {
      delta.commit();
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (ValidationException e) {
      OutputCleaner.deleteQuietly(table.io(), output.added(), e);
      throw new IllegalStateException(
          "Table "
              + table.name()
              + " changed while converting its equality deletes ("
              + e.getMessage()
              + "); the table is unchanged — run convert-equality-deletes again",
          e);
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), output.added(), e);
      throw e;
    }
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  /** Equality delete files that apply to data files that may hold rows matching {@code filter}. */
  private static Map<String, DeleteFile> equalityDeletes(
      Table table, Snapshot snapshot, Expression filter) {
    Map<String, DeleteFile> deletes = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .useSnapshot(snapshot.snapshotId())
            .filter(filter)
            .ignoreResiduals()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        for (DeleteFile delete : task.deletes()) {
          if (delete.content() == FileContent.EQUALITY_DELETES) {
            deletes.putIfAbsent(delete.location(), delete);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    return deletes;
  }

  /**
   * Every task of the snapshot (no filter: an equality delete must be resolved against all the data
   * files it applies to before it can go) that one of {@code deleteLocations} applies to, by
   * partition of its spec.
   */
  private static List<List<FileScanTask>> tasksByPartition(
      Table table, Snapshot snapshot, Set<String> deleteLocations) {
    Map<Integer, StructLikeMap<List<FileScanTask>>> bySpec = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).ignoreResiduals().planFiles()) {
      for (FileScanTask task : tasks) {
        if (task.deletes().stream()
            .anyMatch(delete -> deleteLocations.contains(delete.location()))) {
          int specId = task.file().specId();
          bySpec
              .computeIfAbsent(
                  specId, id -> StructLikeMap.create(table.specs().get(id).partitionType()))
              .computeIfAbsent(task.file().partition(), key -> new ArrayList<>())
              .add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    List<List<FileScanTask>> partitions = new ArrayList<>();
    bySpec.values().forEach(partitionsOfSpec -> partitions.addAll(partitionsOfSpec.values()));
    return partitions;
  }

  private static OutputFileFactory outputFiles(Table table) {
    return OutputFileFactory.builderFor(table, 1, System.currentTimeMillis())
        .format(TableUtil.formatVersion(table) >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET)
        .operationId("lakeops-convert-" + UUID.randomUUID())
        .build();
  }

  private static ConversionResult empty(Table table, long started, boolean dryRun) {
    return new ConversionResult(
        table.name(),
        0,
        DeleteFileCounts.NONE,
        DeleteFileCounts.NONE,
        0,
        0,
        OptionalLong.empty(),
        elapsed(started),
        dryRun);
  }

  private static Duration elapsed(long started) {
    return Duration.ofNanos(System.nanoTime() - started);
  }
}
