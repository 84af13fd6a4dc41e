package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Parquet position-delete reader against Iceberg's own delete loader: for every data file both
 * find the same deleted positions, whether a delete file names one data file or several, spans row
 * groups, or repeats positions another delete file holds.
 */
class ParquetPositionDeletesTest {
  private static final int ROWS_PER_FILE = 40_000;

  @TempDir Path warehouse;

  @Test
  void deleteFilesNamingSeveralDataFilesAcrossRowGroupsReadLikeIcebergsLoader() {
    DeleteReadFixture fixture = DeleteReadFixture.create(warehouse, 2, ROWS_PER_FILE);
    Table table = fixture.table();
    List<DataFile> data = fixture.dataFiles();
    TreeMap<String, long[]> shared = new TreeMap<>();
    shared.put(data.get(0).location(), every(3));
    shared.put(data.get(1).location(), every(7));
    DeleteFile sharedFile = writeDeletes(table, data.get(0), shared);
    DeleteFile overlapping =
        TableFiles.writePositionDeletes(table, data.get(0), 0, 1, 2, 3, ROWS_PER_FILE - 1);
    table.newRowDelta().addDeletes(sharedFile).addDeletes(overlapping).commit();

    int compared = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(ParquetPositionDeletes.reads(task.deletes())).isTrue();
        SortedPositions read =
            new ParquetPositionDeletes(table.io())
                .read(task.file().location(), task.deletes())
                .orElseThrow();
        assertThat(fixture.positions(read)).isEqualTo(fixture.icebergPositions(task));
        compared++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // the third data file is planned with the shared file too (same partition) and finds none
    assertThat(compared).isEqualTo(3);
  }

  @Test
  void positionsAskedOutOfOrderAreFoundToo() {
    SortedPositions positions = SortedPositions.of(new long[] {9, 3, 3, 7, 1}, 5);

    assertThat(positions.cardinality()).isEqualTo(4);
    assertThat(positions.isDeleted(7)).isTrue();
    assertThat(positions.isDeleted(8)).isFalse();
    assertThat(positions.isDeleted(3)).isTrue();
    assertThat(positions.isDeleted(1)).isTrue();
    assertThat(positions.isDeleted(2)).isFalse();
    assertThat(positions.isDeleted(9)).isTrue();
    assertThat(positions.isDeleted(10)).isFalse();
    assertThat(positions.isDeleted(7)).isTrue();
  }

  private static long[] every(int step) {
    return LongStream.range(0, ROWS_PER_FILE).filter(row -> row % step == 1).toArray();
  }

  /**
   * One position-delete file for several data files, ordered by path and position as the spec asks,
   * in small row groups so that some hold rows of one data file only.
   */
  private static DeleteFile writeDeletes(
      Table table, DataFile partitionOf, TreeMap<String, long[]> positions) {
    EncryptedOutputFile output =
        OutputFileFactory.builderFor(table, 1, 1)
            .build()
            .newOutputFile(table.spec(), partitionOf.partition());
    try (PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(output)
            .setAll(table.properties())
            .set(TableProperties.DELETE_PARQUET_ROW_GROUP_SIZE_BYTES, "4096")
            .set(TableProperties.DELETE_PARQUET_ROW_GROUP_CHECK_MIN_RECORD_COUNT, "100")
            .set(TableProperties.DELETE_PARQUET_ROW_GROUP_CHECK_MAX_RECORD_COUNT, "100")
            .withSpec(table.spec())
            .withPartition(partitionOf.partition())
            .overwrite()
            .buildPositionWriter()) {
      PositionDelete<Record> delete = PositionDelete.create();
      positions.entrySet().stream()
          .sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
          .forEach(
              entry -> {
                for (long position : entry.getValue()) {
                  writer.write(delete.set(entry.getKey(), position, null));
                }
              });
      writer.close();
      return writer.toDeleteFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
