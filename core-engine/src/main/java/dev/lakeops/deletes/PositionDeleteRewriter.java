package dev.lakeops.deletes;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.ContractDefaults;
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
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Iceberg's {@code rewrite_position_delete_files}: in every partition with at least {@code
 * minInputFiles} position delete files, reads the deleted positions of every live data file and
 * writes them again, compacted, into one position delete file per partition (v2) or one deletion
 * vector per data file (v3, where the old position delete files and deletion vectors are merged).
 * Positions of data files that no longer exist are dropped. The commit validates from the planned
 * snapshot; after a clean failure the new files are deleted, after an unknown commit state they are
 * kept.
 */
public final class PositionDeleteRewriter {
  /** Partitions with fewer position delete files than this are left alone. */
  public static final int MIN_INPUT_FILES_DEFAULT = ContractDefaults.MIN_INPUT_FILES;

  public PositionDeleteRewriteResult rewrite(Table table, int minInputFiles, boolean dryRun) {
    return rewrite(table, minInputFiles, dryRun, Expressions.alwaysTrue());
  }

  /**
   * Rewrites only the partitions of data files {@code filter} may select (a partition filter, as
   * {@code serve}'s triggers give).
   */
  public PositionDeleteRewriteResult rewrite(
      Table table, int minInputFiles, boolean dryRun, Expression filter) {
    requireNonNull(table, "table is null");
    requireNonNull(filter, "filter is null");
    long started = System.nanoTime();
    table.refresh();
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return empty(table, started, dryRun);
    }
    boolean vectors = TableUtil.formatVersion(table) >= 3;
    Map<Integer, StructLikeMap<List<FileScanTask>>> byPartition =
        tasksWithPositionDeletes(table, snapshot, filter);
    List<PartitionWork> work = new ArrayList<>();
    for (Map.Entry<Integer, StructLikeMap<List<FileScanTask>>> spec : byPartition.entrySet()) {
      for (Map.Entry<StructLike, List<FileScanTask>> partition : spec.getValue().entrySet()) {
        Set<DeleteFile> inputs = positionDeletes(partition.getValue());
        long files =
            inputs.stream()
                .filter(file -> !org.apache.iceberg.util.ContentFileUtil.isDV(file))
                .count();
        if (files >= minInputFiles || (vectors && files > 0)) {
          work.add(
              new PartitionWork(
                  table.specs().get(spec.getKey()),
                  partition.getKey(),
                  partition.getValue(),
                  inputs));
        }
      }
    }
    Set<DeleteFile> replaced = new LinkedHashSet<>();
    work.forEach(partition -> replaced.addAll(partition.inputs()));
    if (dryRun || work.isEmpty()) {
      return new PositionDeleteRewriteResult(
          table.name(),
          work.size(),
          DeleteFileCounts.of(replaced),
          DeleteFileCounts.NONE,
          0,
          OptionalLong.empty(),
          elapsed(started),
          dryRun,
          bytes(replaced),
          0);
    }
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 1, System.currentTimeMillis())
            .format(vectors ? FileFormat.PUFFIN : FileFormat.PARQUET)
            .operationId("lakeops-deletes-" + UUID.randomUUID())
            .build();
    List<DeleteFile> added = new ArrayList<>();
    long rows = 0;
    try {
      for (PartitionWork partition : work) {
        rows +=
            vectors
                ? writeVectors(table, outputs, partition, added)
                : writePositionFile(table, outputs, partition, added);
      }
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), added, e);
      throw e;
    }
    RewriteFiles rewrite = table.newRewrite().validateFromSnapshot(snapshot.snapshotId());
    replaced.forEach(rewrite::deleteFile);
    added.forEach(rewrite::addFile);
    rewrite.set("lakeops.operation", MaintenanceOperation.REWRITE_POSITION_DELETES.commandName());
    try {
      rewrite.commit();
    } catch (CommitStateUnknownException e) {
      throw e;
    } catch (RuntimeException e) {
      OutputCleaner.deleteQuietly(table.io(), added, e);
      throw e;
    }
    return new PositionDeleteRewriteResult(
        table.name(),
        work.size(),
        DeleteFileCounts.of(replaced),
        DeleteFileCounts.of(added),
        rows,
        OptionalLong.of(table.currentSnapshot().snapshotId()),
        elapsed(started),
        false,
        bytes(replaced),
        bytes(added));
  }

  private record PartitionWork(
      PartitionSpec spec, StructLike partition, List<FileScanTask> tasks, Set<DeleteFile> inputs) {}

  private static Map<Integer, StructLikeMap<List<FileScanTask>>> tasksWithPositionDeletes(
      Table table, Snapshot snapshot, Expression filter) {
    Map<Integer, StructLikeMap<List<FileScanTask>>> byPartition = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .useSnapshot(snapshot.snapshotId())
            .filter(filter)
            .ignoreResiduals()
            .planFiles()) {
      for (FileScanTask task : tasks) {
        if (task.deletes().stream()
            .anyMatch(delete -> delete.content() == FileContent.POSITION_DELETES)) {
          int specId = task.file().specId();
          byPartition
              .computeIfAbsent(
                  specId, id -> StructLikeMap.create(table.specs().get(id).partitionType()))
              .computeIfAbsent(task.file().partition(), key -> new ArrayList<>())
              .add(task);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot close the scan of table " + table.name(), e);
    }
    return byPartition;
  }

  private static Set<DeleteFile> positionDeletes(List<FileScanTask> tasks) {
    Map<String, DeleteFile> files = new LinkedHashMap<>();
    for (FileScanTask task : tasks) {
      for (DeleteFile delete : task.deletes()) {
        if (delete.content() == FileContent.POSITION_DELETES) {
          files.putIfAbsent(delete.location(), delete);
        }
      }
    }
    return new LinkedHashSet<>(files.values());
  }

  /** Deleted positions of every data file of {@code partition}, sorted by data file location. */
  private static Map<String, PositionDeleteIndex> positionsByFile(
      Table table, PartitionWork partition) {
    BaseDeleteLoader loader = new BaseDeleteLoader(file -> table.io().newInputFile(file));
    Map<String, PositionDeleteIndex> positions = new java.util.TreeMap<>();
    for (FileScanTask task : partition.tasks()) {
      List<DeleteFile> applying =
          task.deletes().stream()
              .filter(delete -> delete.content() == FileContent.POSITION_DELETES)
              .toList();
      PositionDeleteIndex index = loader.loadPositionDeletes(applying, task.file().location());
      if (index.isNotEmpty()) {
        positions.put(task.file().location(), index);
      }
    }
    return positions;
  }

  private static long writePositionFile(
      Table table, OutputFileFactory outputs, PartitionWork partition, List<DeleteFile> added) {
    Map<String, PositionDeleteIndex> positions = positionsByFile(table, partition);
    if (positions.isEmpty()) {
      return 0;
    }
    long rows = 0;
    PositionDeleteWriter<Record> writer =
        PositionDeleteWriters.open(table, outputs, partition.spec(), partition.partition());
    try (PositionDeleteWriter<Record> closing = writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (Map.Entry<String, PositionDeleteIndex> file : positions.entrySet()) {
        long[] count = new long[1];
        file.getValue()
            .forEach(
                position -> {
                  closing.write(delete.set(file.getKey(), position, null));
                  count[0]++;
                });
        rows += count[0];
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write a position delete file for table " + table.name(), e);
    }
    added.add(writer.toDeleteFile());
    return rows;
  }

  private static long writeVectors(
      Table table, OutputFileFactory outputs, PartitionWork partition, List<DeleteFile> added) {
    Map<String, PositionDeleteIndex> positions = positionsByFile(table, partition);
    if (positions.isEmpty()) {
      return 0;
    }
    BaseDVFileWriter writer = new BaseDVFileWriter(outputs, path -> null);
    long rows = 0;
    try (BaseDVFileWriter closing = writer) {
      for (Map.Entry<String, PositionDeleteIndex> file : positions.entrySet()) {
        closing.delete(file.getKey(), file.getValue(), partition.spec(), partition.partition());
        rows += file.getValue().cardinality();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write deletion vectors for table " + table.name(), e);
    }
    added.addAll(writer.result().deleteFiles());
    return rows;
  }

  private static PositionDeleteRewriteResult empty(Table table, long started, boolean dryRun) {
    return new PositionDeleteRewriteResult(
        table.name(),
        0,
        DeleteFileCounts.NONE,
        DeleteFileCounts.NONE,
        0,
        OptionalLong.empty(),
        elapsed(started),
        dryRun,
        0,
        0);
  }

  private static long bytes(java.util.Collection<DeleteFile> files) {
    return files.stream().mapToLong(DeleteFile::fileSizeInBytes).sum();
  }

  private static Duration elapsed(long started) {
    return Duration.ofNanos(System.nanoTime() - started);
  }
}
