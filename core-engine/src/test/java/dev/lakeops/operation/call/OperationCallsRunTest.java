package dev.lakeops.operation.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.health.TableHealth;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entry point runs bound operations on a real local table. */
class OperationCallsRunTest {
  @TempDir Path warehouse;
  private Table table;
  private RunSettings settings;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 16, 30, 2);
    settings = RunSettings.unrecorded(RunHost.CLI, "local", "db.events");
  }

  @Test
  void compactsWithTheContractsDefaults() {
    long before = table.currentSnapshot().snapshotId();

    MeasuredRun<CompactionResult> run =
        CompactCall.bind(OperationArguments.on(Host.CLI)).run(table, settings);

    table.refresh();
    assertThat(run.result().inputFiles()).isEqualTo(16);
    assertThat(run.result().outputFiles()).isEqualTo(2);
    assertThat(table.currentSnapshot().snapshotId()).isNotEqualTo(before);
  }

  @Test
  void aDryRunThroughTheGenericEntryPointChangesNothing() {
    long before = table.currentSnapshot().snapshotId();

    MeasuredRun<?> compaction =
        OperationCalls.run(
            Operations.COMPACT,
            OperationArguments.on(Host.SPARK).with(Operations.DRY_RUN, true),
            table,
            settings);
    MeasuredRun<?> expiry =
        OperationCalls.run(
            Operations.EXPIRE_SNAPSHOTS,
            OperationArguments.on(Host.SPARK)
                .with(Operations.OLDER_THAN, "0s")
                .with(Operations.DRY_RUN, true),
            table,
            settings);

    table.refresh();
    assertThat(((CompactionResult) compaction.result()).dryRun()).isTrue();
    assertThat(((SnapshotExpiryResult) expiry.result()).expiredSnapshotIds()).isNotEmpty();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(before);
  }

  @Test
  void healthReadsTheLayout() {
    MeasuredRun<TableHealth> run =
        HealthCall.bind(OperationArguments.on(Host.TRINO)).run(table, settings);

    assertThat(run.result().dataFiles()).isEqualTo(16);
  }
}
