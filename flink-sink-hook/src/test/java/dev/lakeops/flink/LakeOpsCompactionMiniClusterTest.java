package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.ledger.JdbcLeaseTable;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLease;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Flink job on a MiniCluster: a bounded stream written by Iceberg's {@code IcebergSink} with
 * a checkpoint every 200 ms, and the LakeOps hook attached.
 */
class LakeOpsCompactionMiniClusterTest {
  // 40 checkpoints of 200 ms: long enough for the hook's first (cold) compaction, which takes
  // seconds on a loaded 2-core machine, to commit while the stream still writes
  /** Whether the hook holds the lease: a row of the store it records runs in, not a property. */
  private static boolean hookHoldsLock(Table table, StoreLocation store) {
    assertThat(table.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
    try (JdbcLeaseTable leases = JdbcLeaseTable.open(store)) {
      return leases
          .holder(TableLocks.storeKey(table))
          .filter(lease -> lease.owner().startsWith("flink-job-"))
          .filter(lease -> lease.expiresAt().isAfter(Instant.now()))
          .isPresent();
    }
  }

  private static final long ROWS = 6_000;
  private static final int ROWS_PER_CHECKPOINT = 150;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestJobs.miniCluster(new Configuration());

  @TempDir Path warehouse;

  @Test
  void hookCompactsDuringTheRunUnderTheCrossEngineLock() throws Exception {
    HadoopCatalog catalog = TestJobs.createTable(warehouse);
    TableLoader loader = TestJobs.loader(warehouse);
    Path telemetry = warehouse.resolve("telemetry.db");

    StreamExecutionEnvironment env = TestJobs.environment(Duration.ofMillis(200));
    DataStreamSink<RowData> sink = TestJobs.writeRows(env, loader, ROWS, ROWS_PER_CHECKPOINT);
    LakeOpsCompaction.forTable(loader)
        .minNewFiles(8)
        .minInterval(Duration.ofMillis(300))
        .options(Map.of("min-input-files", "2"))
        .telemetry("sqlite:" + telemetry)
        .build()
        .attachTo(sink);

    StoreLocation runStore = StoreLocation.parse("sqlite:" + telemetry);

    // Phase 1: a CLI without a store holds the lock in the table properties, so the hook (whose
    // lease lives in its store) is refused and the stream carries on.
    HeldTableLock cliLock =
        new TableLocks(LockOptions.defaults().withOwnerLabel("cli"))
            .acquire(catalog.loadTable(TestJobs.IDENTIFIER));
    JobClient job = env.executeAsync("lakeops-hook");
    TestJobs.waitUntil(
        "six writer commits",
        Duration.ofMinutes(2),
        () -> TestJobs.writerCommits(catalog.loadTable(TestJobs.IDENTIFIER)) >= 6);
    assertThat(TestJobs.compactions(catalog.loadTable(TestJobs.IDENTIFIER))).isZero();
    cliLock.close();

    // Phase 2: while the hook compacts, a CLI compaction sharing its store is refused.
    TestJobs.waitUntil(
        "the hook holding the table lock",
        Duration.ofMinutes(2),
        () -> hookHoldsLock(catalog.loadTable(TestJobs.IDENTIFIER), runStore));
    List<String> refusals = new ArrayList<>();
    int cliCompactions = 0;
    try {
      new TableCompactor(
              CompactionListener.NONE,
              LockOptions.defaults().withOwnerLabel("cli").withLeaseStore(Optional.of(runStore)))
          .compact(
              catalog.loadTable(TestJobs.IDENTIFIER),
              CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
      cliCompactions++;
    } catch (TableLockedException e) {
      refusals.add(e.getMessage());
    }
    job.getJobExecutionResult().get();
    assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);

    Table table = catalog.loadTable(TestJobs.IDENTIFIER);
    long commits = TestJobs.writerCommits(table);
    assertThat(commits).isGreaterThanOrEqualTo(ROWS / ROWS_PER_CHECKPOINT / 2);
    assertThat(TestJobs.compactions(table) - cliCompactions)
        .as("compactions by the hook")
        .isPositive();
    assertThat(refusals)
        .as("a CLI compaction refused while the hook held the lock")
        .singleElement()
        .satisfies(
            message ->
                assertThat(message)
                    .startsWith("Table " + table.name() + " is being compacted by flink-job-")
                    .contains("a lease expiring at"));
    // the hook runs after checkpoints, so the last commits may still be uncompacted when the
    // bounded stream ends, and how many (and whether the writer commits again after the hook's
    // first compaction) depends on the machine's speed: assert only that the hook's compactions
    // (above) left fewer files than the sink wrote
    assertThat(dataFiles(table)).isLessThan(writtenDataFiles(table));
    assertThat(table.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
    TestJobs.assertHoldsExactly(catalog, ROWS);

    try (TelemetryStore store = TelemetryStoreFactory.open("sqlite:" + telemetry)) {
      assertThat(store.countEvents()).isBetween(commits / 2, commits);
    }
    assertHookCompactionsAreLedgerRows(
        table, "sqlite:" + telemetry, (int) (TestJobs.compactions(table) - cliCompactions));
  }

  /**
   * Each compaction the hook committed is a succeeded ledger row whose figures are its snapshot's.
   */
  private static void assertHookCompactionsAreLedgerRows(
      Table table, String store, int hookCompactions) {
    List<RunRecord> runs;
    try (RunLedger ledger = JdbcRunLedger.open(store)) {
      runs = ledger.list(RunQuery.all().withTable("db.events"));
    }
    assertThat(runs)
        .allSatisfy(
            run -> {
              assertThat(run.start().host()).isEqualTo(RunHost.FLINK);
              assertThat(run.start().catalog()).isEqualTo("hadoop");
              assertThat(run.operation()).isEqualTo("compact");
              assertThat(run.start().reason()).matches("checkpoint \\d+: \\d+ .*");
              assertThat(run.status())
                  .isIn(RunStatus.SUCCEEDED, RunStatus.ABANDONED, RunStatus.FAILED);
            });
    List<RunRecord> committed =
        runs.stream()
            .filter(
                run ->
                    run.status() == RunStatus.SUCCEEDED && run.figures().snapshotId().isPresent())
            .toList();
    assertThat(committed).hasSize(hookCompactions);
    for (RunRecord run : committed) {
      Snapshot snapshot = table.snapshot(run.figures().snapshotId().getAsLong());
      assertThat(snapshot.operation()).isEqualTo(DataOperations.REPLACE);
      assertThat(run.figures().inputFiles())
          .isEqualTo(Long.parseLong(snapshot.summary().get("deleted-data-files")));
      assertThat(run.figures().outputFiles())
          .isEqualTo(Long.parseLong(snapshot.summary().get("added-data-files")));
    }
  }

  private static long writtenDataFiles(Table table) {
    return StreamSupport.stream(table.snapshots().spliterator(), false)
        .filter(snapshot -> DataOperations.APPEND.equals(snapshot.operation()))
        .mapToLong(
            snapshot -> Long.parseLong(snapshot.summary().getOrDefault("added-data-files", "0")))
        .sum();
  }

  private static long dataFiles(Table table) throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      long count = 0;
      for (FileScanTask ignored : tasks) {
        count++;
      }
      return count;
    }
  }
}
