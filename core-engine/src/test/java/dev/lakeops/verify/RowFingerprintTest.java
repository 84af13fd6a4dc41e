package dev.lakeops.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowFingerprintTest {
  /**
   * The fingerprint of the table {@link #tableWithDeletes} builds, as the first (sequential,
   * whole-table scan) implementation computed it: fingerprints recorded by earlier runs stay
   * comparable.
   */
  private static final RowFingerprint RECORDED = new RowFingerprint(574, 4308909960262325277L);

  @TempDir Path warehouse;

  @Test
  void fingerprintOfATableWithDeletesKeepsTheValueOfTheSequentialScan() throws IOException {
    Table table = tableWithDeletes();

    assertThat(RowFingerprint.of(table)).isEqualTo(RECORDED);
  }

  @Test
  void filesFingerprintedInParallelAddUpToTheSequentialFingerprint() throws IOException {
    Table table = tableWithDeletes();
    long snapshot = table.currentSnapshot().snapshotId();

    RowFingerprint sequential = RowFingerprint.of(table, snapshot, 1);
    RowFingerprint parallel = RowFingerprint.of(table, snapshot, 4);

    assertThat(parallel).isEqualTo(sequential);
    assertThat(parallel.rowCount()).isEqualTo(liveRows(table)).isLessThan(12 * 50);
  }

  @Test
  void deletedRowsChangeTheFingerprint() throws IOException {
    Table table = tableWithDeletes();
    long withDeletes = table.currentSnapshot().snapshotId();
    long beforeEqualityDelete = table.currentSnapshot().parentId();
    long firstSnapshot = table.history().get(0).snapshotId();

    assertThat(RowFingerprint.of(table, beforeEqualityDelete))
        .isNotEqualTo(RowFingerprint.of(table, withDeletes));
    assertThat(RowFingerprint.of(table, firstSnapshot).rowCount()).isEqualTo(4 * 50);
  }

  @Test
  void tableWithoutSnapshotHasTheEmptyFingerprint() {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .createTable(TableIdentifier.of("db", "empty"), DemoTableGenerator.SCHEMA);

    assertThat(RowFingerprint.of(table)).isEqualTo(new RowFingerprint(0, 0));
  }

  /**
   * Twelve files of 50 rows over three days, then position deletes in two files and an equality
   * delete of one country in one day.
   */
  private Table tableWithDeletes() {
    Table table =
        new DemoTableGenerator(new HadoopCatalog(new Configuration(), warehouse.toString()))
            .create(TableIdentifier.of("db", "events"), 2, 3, 12, 50, 4);
    List<DataFile> byFirstEvent =
        StreamSupport.stream(table.newScan().includeColumnStats().planFiles().spliterator(), false)
            .map(FileScanTask::file)
            .sorted(Comparator.comparingLong(RowFingerprintTest::firstEventId))
            .toList();
    TableFiles.deletePositions(table, byFirstEvent.get(0), 0, 7, 49);
    TableFiles.deletePositions(table, byFirstEvent.get(5), 3);
    DataFile equalityTarget = byFirstEvent.get(1);
    TableFiles.deleteEqual(table, equalityTarget.partition(), "country", "NL");
    table.refresh();
    return table;
  }

  private static long firstEventId(DataFile file) {
    return Conversions.<Long>fromByteBuffer(Types.LongType.get(), file.lowerBounds().get(1));
  }

  private static long liveRows(Table table) throws IOException {
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      long count = 0;
      for (Record ignored : rows) {
        count++;
      }
      return count;
    }
  }
}
