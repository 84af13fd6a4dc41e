package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.deletes.equality.EqualityDeletedTables;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lakeops convert-equality-deletes}: same rows, equality delete files gone, sequence numbers
 * kept right; {@code --where}, {@code --dry-run} and a bad {@code --where}.
 */
class ConvertEqualityDeletesCommandTest {
  @TempDir Path warehouse;

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void equalityDeletesBecomePositionDeletesWithTheSameRows(int formatVersion) {
    Table table = deletedTable(formatVersion, 2_000);
    RowFingerprint before = RowFingerprint.of(table);

    CommandLineRun run =
        CommandLineRun.of(
            "convert-equality-deletes", "db.t", "--warehouse", warehouse.toString(), "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .contains("\"removed_equality_delete_files\":3")
        .contains("\"partitions\":2")
        .contains("\"spilled_bytes\":0");
    table.refresh();
    TableHealth health = TableHealthInspector.inspect(table);
    assertThat(health.equalityDeleteFiles()).isZero();
    if (formatVersion >= 3) {
      assertThat(run.stdout())
          .contains("\"added_deletion_vectors\":3")
          .contains("\"removed_deletion_vectors\":1");
      assertAtMostOneDeletionVectorPerDataFile(table);
    } else {
      assertThat(run.stdout()).contains("\"added_position_delete_files\":2");
    }
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  @Test
  void whereConvertsOnlyTheDeletesOfMatchingFilesAndDryRunChangesNothing() {
    Table table = deletedTable(2, 2_000);
    RowFingerprint before = RowFingerprint.of(table);
    long snapshot = table.currentSnapshot().snapshotId();

    CommandLineRun dryRun =
        CommandLineRun.of(
            "convert-equality-deletes",
            "db.t",
            "--warehouse",
            warehouse.toString(),
            "--where",
            "part = 1",
            "--dry-run");
    table.refresh();
    assertThat(dryRun.exitCode()).as(dryRun.stderr()).isZero();
    assertThat(dryRun.stdout())
        .startsWith("Would convert 1 equality delete files in 1 partitions of");
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);

    CommandLineRun run =
        CommandLineRun.of(
            "convert-equality-deletes",
            "db.t",
            "--warehouse",
            warehouse.toString(),
            "--where",
            "part = 1");
    table.refresh();
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).startsWith("Converted 1 equality delete files in 1 partitions of");
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isEqualTo(2);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void badWhereIsAOneLineErrorAndTheTableIsUnchanged() {
    Table table = deletedTable(2, 100);
    long snapshot = table.currentSnapshot().snapshotId();

    CommandLineRun run =
        CommandLineRun.of(
            "convert-equality-deletes",
            "db.t",
            "--warehouse",
            warehouse.toString(),
            "--where",
            "part = = 1");

    table.refresh();
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.stderr()).startsWith("lakeops: error: ").contains("where");
    assertThat(run.stderr().strip().lines()).hasSize(1);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  private Table deletedTable(int formatVersion, int idDeletes) {
    return EqualityDeletedTables.create(
        new HadoopCatalog(new Configuration(), warehouse.toString()), formatVersion, idDeletes);
  }

  private static void assertAtMostOneDeletionVectorPerDataFile(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        long vectors = task.deletes().stream().filter(ContentFileUtil::isDV).count();
        long others =
            task.deletes().stream()
                .filter(
                    delete ->
                        !ContentFileUtil.isDV(delete)
                            || delete.content() == FileContent.EQUALITY_DELETES)
                .count();
        assertThat(vectors).as(task.file().location()).isLessThanOrEqualTo(1);
        assertThat(others).as(task.file().location()).isZero();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
