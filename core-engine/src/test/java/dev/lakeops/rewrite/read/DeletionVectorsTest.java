package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletion vectors read straight from their Puffin blobs against Iceberg's own delete loader: every
 * data file of a v3 table finds the same deleted positions, with or without a deletion vector.
 */
class DeletionVectorsTest {
  private static final int ROWS_PER_FILE = 20_000;

  @TempDir Path warehouse;

  @Test
  void deletionVectorsReadLikeIcebergsLoader() throws IOException {
    Table table =
        SimpleTables.create(
            new HadoopCatalog(new Configuration(), warehouse.toString()), "t", 3, Map.of());
    List<DataFile> data = new ArrayList<>();
    for (int file = 0; file < 3; file++) {
      data.add(
          TableFiles.append(
              table,
              SimpleTables.partition(table, 1),
              SimpleTables.rows(table.schema(), (long) file * ROWS_PER_FILE, ROWS_PER_FILE, 1)));
    }
    TableFiles.deletionVector(
        table,
        data.get(0),
        LongStream.range(0, ROWS_PER_FILE).filter(row -> row % 7 == 3).toArray());
    TableFiles.deletionVector(table, data.get(1), 0, 1, 2, ROWS_PER_FILE - 1);

    TaskPositionDeletes deletes = new TaskPositionDeletes(table, table.schema());
    int withVector = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        PositionDeleteIndex read = deletes.read(task).orElseThrow();
        assertThat(positions(read)).isEqualTo(icebergPositions(table, task));
        if (!task.deletes().isEmpty()) {
          assertThat(DeletionVectors.reads(task.deletes())).isTrue();
          assertThat(read.cardinality()).isEqualTo(task.deletes().get(0).recordCount());
          withVector++;
        }
      }
    }
    assertThat(withVector).isEqualTo(2);
  }

  private static TreeSet<Long> positions(PositionDeleteIndex index) {
    TreeSet<Long> positions = new TreeSet<>();
    for (long position = 0; position < ROWS_PER_FILE; position++) {
      if (index.isDeleted(position)) {
        positions.add(position);
      }
    }
    return positions;
  }

  private static TreeSet<Long> icebergPositions(Table table, FileScanTask task) {
    if (task.deletes().isEmpty()) {
      return new TreeSet<>();
    }
    return positions(
        new GenericDeleteFilter(table.io(), task, table.schema(), table.schema())
            .deletedRowPositions());
  }
}
