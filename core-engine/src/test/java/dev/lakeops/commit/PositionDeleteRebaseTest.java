package dev.lakeops.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-basing: position deletes another writer adds against the input files of a group the
 * decode-free merge rewrote are rewritten against the group's new files and committed with it, in
 * place of the writer's delete files, instead of dropping the group.
 */
class PositionDeleteRebaseTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;

  @Test
  void concurrentPositionDeletesAreRebasedOntoTheNewFiles() throws IOException {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    long id = 0;
    for (int part = 0; part < 3; part++) {
      for (int file = 0; file < 4; file++) {
        SimpleTables.append(table, part, id, 50);
        id += 50;
      }
    }
    AtomicLong concurrentSnapshot = new AtomicLong();
    AtomicBoolean fired = new AtomicBoolean();
    List<String> deletedFrom = new ArrayList<>();
    CompactionListener concurrentDeletes =
        new CompactionListener() {
          @Override
          public void groupRewritten(RewrittenGroup group) {
            if (fired.compareAndSet(false, true)) {
              Table other = catalog.loadTable(NAME);
              DataFile second = group.group().tasks().get(1).file();
              DataFile fourth = group.group().tasks().get(3).file();
              deletedFrom.add(second.location());
              deletedFrom.add(fourth.location());
              other
                  .newRowDelta()
                  .addDeletes(TableFiles.writePositionDeletes(other, second, 0, 1, 17))
                  .addDeletes(TableFiles.writePositionDeletes(other, fourth, 49))
                  .commit();
              concurrentSnapshot.set(other.currentSnapshot().snapshotId());
            }
          }
        };

    CompactionResult result =
        new TableCompactor(concurrentDeletes)
            .compact(
                table,
                CompactionRequest.builder()
                    .options(
                        Map.of("max-concurrent-file-group-rewrites", "1", "min-input-files", "2"))
                    .build());

    table.refresh();
    assertThat(result.droppedGroups()).as("%s", result.dropReasons()).isZero();
    assertThat(result.committedGroups()).isEqualTo(3);
    assertThat(result.rebasedGroups()).isEqualTo(1);
    assertThat(result.copiedBytes()).isEqualTo(result.inputBytes());
    assertThat(RowFingerprint.of(table))
        .isEqualTo(RowFingerprint.of(table, concurrentSnapshot.get()));
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(3 * 4 * 50 - 4);
    assertThat(TableHealthInspector.inspect(table).dataFiles()).isEqualTo(3);
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isEqualTo(1);
    Set<String> inputs = Set.copyOf(deletedFrom);
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(inputs).doesNotContain(task.file().location());
        for (DeleteFile delete : task.deletes()) {
          assertThat(ContentFileUtil.referencedDataFileLocation(delete))
              .isEqualTo(task.file().location());
          assertThat(delete.recordCount()).isEqualTo(4);
        }
      }
    }
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }
}
