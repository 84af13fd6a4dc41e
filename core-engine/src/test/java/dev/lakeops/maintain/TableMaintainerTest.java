package dev.lakeops.maintain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableMaintainerTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private Table table;
  private Path orphan;

  @BeforeEach
  void createTable() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 16, 30, 2);
    table.updateProperties().set(TableProperties.MAX_SNAPSHOT_AGE_MS, "0").commit();
    TableFiles.ageAll(table, Duration.ofDays(10));
    orphan =
        TableFiles.plant(
            TableFiles.locationOf(table).resolve("data/lost.parquet"), Duration.ofDays(10));
  }

  @Test
  void everyStepRunsAndTheRowsStayTheSame() {
    RowFingerprint rows = RowFingerprint.of(table);

    MaintenanceResult result =
        new TableMaintainer().maintain(table, MaintenanceOptions.defaults(Set.of(), false));

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    assertThat(result.expiry().orElseThrow().expiredSnapshotIds()).hasSize(7);
    assertThat(result.orphans().orElseThrow().deletedFiles()).isEqualTo(1);
    assertThat(orphan).doesNotExist();
    assertThat(result.compaction().orElseThrow().inputFiles()).isEqualTo(16);
    assertThat(result.compaction().orElseThrow().outputFiles()).isEqualTo(2);
    assertThat(result.manifests()).isPresent();
    assertThat(table.currentSnapshot().allManifests(table.io()).size()).isLessThanOrEqualTo(2);
    assertThat(TableFiles.readEverySnapshot(table)).isNotEmpty();
  }

  @Test
  void dryRunChangesNothing() {
    Set<Path> files = TableFiles.onDisk(table);
    long snapshot = table.currentSnapshot().snapshotId();

    MaintenanceResult result =
        new TableMaintainer().maintain(table, MaintenanceOptions.defaults(Set.of(), true));

    table.refresh();
    assertThat(TableFiles.onDisk(table)).isEqualTo(files);
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(result.expiry().orElseThrow().expiredSnapshotIds()).hasSize(7);
    assertThat(result.orphans().orElseThrow().orphanFiles()).hasSize(1);
    assertThat(result.compaction().orElseThrow().dryRun()).isTrue();
  }

  @Test
  void skippedStepsDoNotRun() {
    MaintenanceResult result =
        new TableMaintainer()
            .maintain(
                table,
                MaintenanceOptions.defaults(
                    Set.of(MaintenanceStep.ORPHANS, MaintenanceStep.COMPACT), false));

    assertThat(result.expiry()).isPresent();
    assertThat(result.orphans()).isEmpty();
    assertThat(result.compaction()).isEmpty();
    assertThat(result.manifests()).isPresent();
    assertThat(orphan).exists();
  }
}
