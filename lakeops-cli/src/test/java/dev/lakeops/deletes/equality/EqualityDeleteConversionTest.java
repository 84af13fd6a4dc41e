package dev.lakeops.deletes.equality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.ContentFileUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code convert-equality-deletes}: same rows, equality delete files gone, sequence numbers kept
 * right.
 */
class EqualityDeleteConversionTest {
  @TempDir Path warehouse;
  @TempDir Path spill;

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

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void keysBeyondTheBudgetAreConvertedBySpilling(int formatVersion) {
    Table table = deletedTable(formatVersion, 50_000);
    RowFingerprint before = RowFingerprint.of(table);

    ConversionResult result =
        new EqualityDeleteConverter()
            .convert(
                table,
                ConversionOptions.defaults()
                    .withMemoryBudget(ByteSize.parse("16MB"))
                    .withSpillDirectory(spill));

    table.refresh();
    assertThat(result.spilledBytes()).isPositive();
    assertThat(result.removed().equalityDeleteFiles()).isEqualTo(3);
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(spill.toFile().list()).isEmpty();
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

  /**
   * Partition 0: two files; {@code idDeletes} even ids deleted by {@code id}; a file written after
   * that delete repeating ids 0..999 (which keeps them); {@code data} values deleted afterwards;
   * position deletes (v2) or a deletion vector (v3) on the first file, overlapping the equality
   * deletes (row 2). Partition 1: one file and one equality delete on {@code id}.
   */
  private Table deletedTable(int formatVersion, int idDeletes) {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "t", formatVersion, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    DataFile first =
        TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 60_000, 0));
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 60_000, 60_000, 0));
    EqualityDeleteFiles.commit(table, partition, "id", idDeletes, index -> index * 2);
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 1_000, 0));
    EqualityDeleteFiles.commit(table, partition, "data", 3_000, index -> "row-" + (index * 3));
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, first, 1, 2, 3);
    } else {
      TableFiles.deletePositions(table, first, 1, 2, 3);
    }
    PartitionKey other = SimpleTables.partition(table, 1);
    TableFiles.append(table, other, SimpleTables.rows(table.schema(), 500_000, 1_000, 1));
    EqualityDeleteFiles.commit(table, other, "id", 10, index -> 500_000L + index);
    return table;
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
