package dev.lakeops.deletes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "a table with 1,000 data files and 1,000 position-delete files compacts to a table
 * with zero delete files and identical rows", at full size: one position delete file per data file
 * (file-scoped, as engines write them), ten partitions. The 2,000 files are written on four
 * threads: writing them one by one took most of a minute on the shared build machine; the
 * compaction itself takes a few seconds.
 */
class ThousandDeleteFilesTest {
  private static final int FILES = 1_000;
  private static final int ROWS_PER_FILE = 20;

  @TempDir Path warehouse;

  @Test
  void thousandDataFilesWithThousandPositionDeleteFilesCompactToZeroDeleteFiles() throws Exception {
    Table table =
        SimpleTables.create(
            new HadoopCatalog(new Configuration(), warehouse.toString()), "t", 2, Map.of());
    List<DataFile> data =
        writeInParallel(
            file ->
                TableFiles.write(
                    table,
                    SimpleTables.partition(table, file % 10),
                    SimpleTables.rows(
                        table.schema(), (long) file * ROWS_PER_FILE, ROWS_PER_FILE, file % 10)));
    AppendFiles append = table.newAppend();
    data.forEach(append::appendFile);
    append.commit();
    List<DeleteFile> deletes =
        writeInParallel(file -> TableFiles.writePositionDeletes(table, data.get(file), 0, 7, 19));
    RowDelta delta = table.newRowDelta();
    deletes.forEach(delta::addDeletes);
    delta.commit();
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo((long) FILES * (ROWS_PER_FILE - 3));
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isEqualTo(FILES);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    TableHealth after = TableHealthInspector.inspect(table);
    assertThat(result.inputFiles()).isEqualTo(FILES);
    assertThat(result.removedDeleteFiles()).isEqualTo(FILES);
    assertThat(after.positionDeleteFiles()).isZero();
    assertThat(after.equalityDeleteFiles()).isZero();
    assertThat(after.dataFiles()).isEqualTo(10);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  private static <F extends ContentFile<F>> List<F> writeInParallel(IntFunction<F> writer)
      throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(4);
    try {
      List<Future<F>> futures = new ArrayList<>();
      for (int file = 0; file < FILES; file++) {
        int index = file;
        futures.add(executor.submit(() -> writer.apply(index)));
      }
      List<F> files = new ArrayList<>();
      for (Future<F> future : futures) {
        files.add(future.get());
      }
      return files;
    } finally {
      executor.shutdownNow();
    }
  }
}
