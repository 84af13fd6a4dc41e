package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Optional;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The row positions a task's position deletes and deletion vectors delete from its data file.
 * Parquet position-delete files are read by {@link ParquetPositionDeletes} (positions sorted, asked
 * in row order at one comparison per row), a lone deletion vector by {@link DeletionVectors}, other
 * formats by Iceberg's loader. Tasks with equality deletes have no answer here: their rows need the
 * row path.
 */
public final class TaskPositionDeletes {
  private final Table table;
  private final Schema readSchema;
  private final ParquetPositionDeletes parquetDeletes;
  private final DeletionVectors deletionVectors;

  /**
   * @param readSchema the columns the caller reads (Iceberg's loader projects them)
   */
  public TaskPositionDeletes(Table table, Schema readSchema) {
    this(table, readSchema, new ParquetInputFiles(table.io()));
  }

  TaskPositionDeletes(Table table, Schema readSchema, ParquetInputFiles inputFiles) {
    this.table = requireNonNull(table, "table is null");
    this.readSchema = requireNonNull(readSchema, "readSchema is null");
    this.parquetDeletes = new ParquetPositionDeletes(requireNonNull(inputFiles, "inputFiles"));
    this.deletionVectors = new DeletionVectors(inputFiles);
  }

  /**
   * The positions of {@code task}'s file its deletes delete (an empty index when none); empty when
   * the task has equality deletes. The index is for one reader walking the file front to back.
   */
  public Optional<PositionDeleteIndex> read(FileScanTask task) throws IOException {
    if (task.deletes().isEmpty()) {
      return Optional.of(PositionDeleteIndex.empty());
    }
    if (DeletionVectors.reads(task.deletes())) {
      return deletionVectors.read(task.deletes());
    }
    if (ParquetPositionDeletes.reads(task.deletes())) {
      Optional<SortedPositions> read = parquetDeletes.read(task.file().location(), task.deletes());
      if (read.isPresent()) {
        return Optional.of(read.get());
      }
    }
    DeleteFilter<Record> deletes =
        new GenericDeleteFilter(table.io(), task, table.schema(), readSchema);
    if (deletes.hasEqDeletes()) {
      return Optional.empty();
    }
    return Optional.of(
        deletes.hasPosDeletes() ? deletes.deletedRowPositions() : PositionDeleteIndex.empty());
  }
}
