package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDeleteIndex;
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
    DeleteReadFixture fixture = DeleteReadFixture.create(warehouse, 3, ROWS_PER_FILE);
    Table table = fixture.table();
    TableFiles.deletionVector(
        table,
        fixture.dataFile(0),
        LongStream.range(0, ROWS_PER_FILE).filter(row -> row % 7 == 3).toArray());
    TableFiles.deletionVector(table, fixture.dataFile(1), 0, 1, 2, ROWS_PER_FILE - 1);

    TaskPositionDeletes deletes = new TaskPositionDeletes(table, table.schema());
    int withVector = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        PositionDeleteIndex read = deletes.read(task).orElseThrow();
        assertThat(fixture.positions(read)).isEqualTo(fixture.icebergPositions(task));
        if (!task.deletes().isEmpty()) {
          assertThat(DeletionVectors.reads(task.deletes())).isTrue();
          assertThat(read.cardinality()).isEqualTo(task.deletes().get(0).recordCount());
          withVector++;
        }
      }
    }
    assertThat(withVector).isEqualTo(2);
  }
}
