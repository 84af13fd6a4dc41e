package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.PositionDeleteWriters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Writes resolved equality-deleted positions of one partition at a time: a sorted position delete
 * file (v2) or a deletion vector per data file merged with the file's existing position deletes
 * (v3; the file-scoped deletes it merges are reported as replaced).
 */
final class PositionDeleteOutput {
  private final Table table;
  private final OutputFileFactory outputs;
  private final boolean vectors;
  private final BaseDeleteLoader loader;
  private final List<DeleteFile> added = new ArrayList<>();
  private final List<DeleteFile> replaced = new ArrayList<>();

  PositionDeleteOutput(Table table, OutputFileFactory outputs) {
    this.table = requireNonNull(table, "table is null");
    this.outputs = requireNonNull(outputs, "outputs is null");
    this.vectors = TableUtil.formatVersion(table) >= 3;
    this.loader = new BaseDeleteLoader(file -> table.io().newInputFile(file));
  }

  /** The files written so far (deleted by the caller when the conversion fails). */
  List<DeleteFile> added() {
    return added;
  }

  /** File-scoped position deletes and deletion vectors merged into new deletion vectors. */
  List<DeleteFile> replaced() {
    return replaced;
  }

  /**
   * Writes the positions of {@code resolved} for the data files of {@code tasks} (one partition).
   */
  void write(List<FileScanTask> tasks, ResolvedEqualityDeletes resolved) {
    Map<String, FileScanTask> byLocation = new TreeMap<>();
    for (FileScanTask task : tasks) {
      if (resolved.positions(task.file().location()).isNotEmpty()) {
        byLocation.put(task.file().location(), task);
      }
    }
    if (byLocation.isEmpty()) {
      return;
    }
    FileScanTask first = byLocation.values().iterator().next();
    PartitionSpec spec = table.specs().get(first.file().specId());
    if (vectors) {
      writeVectors(byLocation, resolved, spec, first.file().partition());
    } else {
      writePositionFile(byLocation.keySet(), resolved, spec, first.file().partition());
    }
  }

  private void writePositionFile(
      Collection<String> locations,
      ResolvedEqualityDeletes resolved,
      PartitionSpec spec,
      StructLike partition) {
    PositionDeleteWriter<Record> writer =
        PositionDeleteWriters.open(table, outputs, spec, partition);
    try (PositionDeleteWriter<Record> closing = writer) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (String location : locations) {
        resolved
            .positions(location)
            .forEach(position -> closing.write(delete.set(location, position, null)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write a position delete file for table " + table.name(), e);
    }
    added.add(writer.toDeleteFile());
  }

  private void writeVectors(
      Map<String, FileScanTask> byLocation,
      ResolvedEqualityDeletes resolved,
      PartitionSpec spec,
      StructLike partition) {
    BaseDVFileWriter writer =
        new BaseDVFileWriter(outputs, location -> existingPositions(byLocation.get(location)));
    try (BaseDVFileWriter closing = writer) {
      for (String location : byLocation.keySet()) {
        closing.delete(location, resolved.positions(location), spec, partition);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write deletion vectors for table " + table.name(), e);
    }
    DeleteWriteResult result = writer.result();
    added.addAll(result.deleteFiles());
    replaced.addAll(result.rewrittenDeleteFiles());
  }

  /** The positions the task's position deletes and deletion vector already delete, or null. */
  private PositionDeleteIndex existingPositions(FileScanTask task) {
    List<DeleteFile> positionDeletes =
        task.deletes().stream()
            .filter(delete -> delete.content() == FileContent.POSITION_DELETES)
            .toList();
    return positionDeletes.isEmpty()
        ? null
        : loader.loadPositionDeletes(positionDeletes, task.file().location());
  }
}
