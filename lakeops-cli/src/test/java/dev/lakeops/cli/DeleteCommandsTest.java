package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakeops remove-dangling-deletes} and {@code lakeops rewrite-position-deletes}: what they
 * print with {@code --json} and that the rows stay the same (the core's {@code DeleteLifecycleTest}
 * covers the delete lifecycle through compaction).
 */
class DeleteCommandsTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void removeDanglingDeletesRemovesDanglingPositionAndEqualityDeletes() throws IOException {
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    DataFile first = SimpleTables.append(table, 0, 0, 30);
    DataFile second = SimpleTables.append(table, 0, 100, 30);
    SimpleTables.append(table, 1, 200, 30);
    TableFiles.deletePositions(table, first, 1, 2);
    TableFiles.deleteEqual(table, SimpleTables.partition(table, 0), "data", "row-105");
    table.newDelete().deleteFile(first).deleteFile(second).commit();
    RowFingerprint before = RowFingerprint.of(table);

    String dryRun =
        CommandLineForTests.run(
            "remove-dangling-deletes",
            "--warehouse",
            warehouse.toString(),
            "db.t",
            "--dry-run",
            "--json");
    String removed =
        CommandLineForTests.run(
            "remove-dangling-deletes", "--warehouse", warehouse.toString(), "db.t", "--json");

    table.refresh();
    assertThat(dryRun)
        .contains("\"dry_run\":true")
        .contains("\"removed_position_delete_files\":1")
        .contains("\"removed_equality_delete_files\":1");
    assertThat(removed)
        .contains("\"removed_position_delete_files\":1")
        .contains("\"removed_equality_delete_files\":1")
        .contains("\"removed_deletion_vectors\":0");
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isZero();
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void rewritePositionDeletesWritesOneFilePerPartitionDroppingDeadPositions() throws IOException {
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 3; file++) {
      files.add(SimpleTables.append(table, 0, file * 100L, 40));
    }
    SimpleTables.append(table, 1, 1000, 40);
    for (DataFile file : files) {
      TableFiles.deletePositions(table, file, 1, 3);
      TableFiles.deletePositions(table, file, 5);
    }
    RowFingerprint before = RowFingerprint.of(table);

    String output =
        CommandLineForTests.run(
            "rewrite-position-deletes", "--warehouse", warehouse.toString(), "db.t", "--json");

    table.refresh();
    assertThat(output)
        .contains("\"partitions\":1")
        .contains("\"rewritten_position_delete_files\":6")
        .contains("\"added_position_delete_files\":1")
        .contains("\"deleted_rows\":9");
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }
}
