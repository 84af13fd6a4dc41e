package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickStartTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private Table table;

  @BeforeEach
  void createTable() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 10, 100, 5);
  }

  @Test
  void aTableUpToTheLimitStaysInTheQuickStartJvm() {
    long tableBytes = Long.parseLong(table.currentSnapshot().summary().get("total-files-size"));

    assertThat(new QuickStart(true, ByteSize.ofBytes(tableBytes)).restartForFullJit(table))
        .isFalse();
    assertThat(new QuickStart(true, ByteSize.ofBytes(tableBytes - 1)).restartForFullJit(table))
        .isTrue();
  }

  @Test
  void withoutQuickStartNothingRestarts() {
    assertThat(new QuickStart(false, ByteSize.ofBytes(1)).restartForFullJit(table)).isFalse();
  }

  @Test
  void anEmptyTableStaysInTheQuickStartJvm() {
    Table empty =
        catalog.createTable(
            TableIdentifier.of("db", "empty"),
            new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));

    assertThat(new QuickStart(true, ByteSize.ofBytes(1)).restartForFullJit(empty)).isFalse();
  }

  @Test
  void compactAsksForTheFullJitBeforeChangingTheTable() {
    long snapshotBefore = table.currentSnapshot().snapshotId();
    CommandLineRun run;
    System.setProperty(QuickStart.PROPERTY, "true");
    System.setProperty(QuickStart.LARGEST_TABLE_PROPERTY, "1KB");
    try {
      run =
          CommandLineRun.of("compact", "db.events", "--warehouse", warehouse.toString(), "--json");
    } finally {
      System.clearProperty(QuickStart.PROPERTY);
      System.clearProperty(QuickStart.LARGEST_TABLE_PROPERTY);
    }

    assertThat(run.exitCode()).isEqualTo(QuickStart.RESTART_WITH_FULL_JIT);
    assertThat(run.stdout()).isEmpty();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    assertThat(warehouse.resolve(".lakeops")).doesNotExist();
  }
}
