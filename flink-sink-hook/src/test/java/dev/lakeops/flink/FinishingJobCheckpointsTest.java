package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLease;
import dev.lakeops.lock.TableLocks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded job whose input ends while the hook's compaction still runs: the hook lets it finish
 * without the checkpoint storm a blocking {@code close()} caused (a closing task declines every
 * checkpoint the coordinator triggers, and the coordinator triggers the next one at once).
 */
class FinishingJobCheckpointsTest {
  private static final long ROWS = 800;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestJobs.miniCluster(configuration());

  @TempDir Path warehouse;

  /** Keeps every checkpoint's statistics, not only the last ten. */
  private static Configuration configuration() {
    Configuration configuration = HookGauges.configuration();
    configuration.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 10_000);
    return configuration;
  }

  @Test
  void aCompactionRunningAtTheEndOfInputFinishesWithoutDeclinedCheckpoints(
      @InjectMiniCluster MiniCluster miniCluster) throws Exception {
    HookGauges.clear();
    HadoopCatalog catalog = TestJobs.createTable(warehouse);
    TableLoader loader = TestJobs.loader(warehouse);
    StreamExecutionEnvironment env = TestJobs.environment(Duration.ofMillis(100));
    TestJobs.compactingEveryTwoFiles(loader)
        .lockWait(Duration.ofMinutes(1))
        .closeTimeout(Duration.ofMinutes(1))
        .build()
        .attachTo(TestJobs.writeRows(env, loader, ROWS, 100));

    // The CLI holds the lock, so the hook's first compaction waits for it, as a long compaction
    // runs.
    HeldTableLock cliLock =
        new TableLocks(LockOptions.defaults().withOwnerLabel("cli"))
            .acquire(catalog.loadTable(TestJobs.IDENTIFIER));
    JobClient job = env.executeAsync("hook finishing");
    TestJobs.waitUntil(
        "half the rows committed",
        Duration.ofMinutes(2),
        () -> TestJobs.committedRows(catalog.loadTable(TestJobs.IDENTIFIER)) >= ROWS / 2);
    TestJobs.waitUntil(
        "the input to end while the hook's compaction waits",
        Duration.ofMinutes(2),
        () -> HookGauges.value("finishing") == 1);
    // The finishing task stays in the job's checkpoints: a checkpoint waits for it, not declined
    TestJobs.waitUntil(
        "a checkpoint pending while the hook finishes",
        Duration.ofMinutes(1),
        () -> checkpoints(miniCluster, job).getCounts().getNumberOfInProgressCheckpoints() > 0);
    assertThat(TestJobs.compactions(catalog.loadTable(TestJobs.IDENTIFIER))).isZero();
    assertThat(HookGauges.value("checks")).isPositive();
    cliLock.close();

    job.getJobExecutionResult().get();
    assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
    CheckpointStatsSnapshot checkpoints =
        miniCluster.getArchivedExecutionGraph(job.getJobID()).get().getCheckpointStatsSnapshot();
    assertThat(checkpoints.getCounts().getNumberOfCompletedCheckpoints()).isPositive();
    // Triggers refused while the job's tasks start count as failed too; a declined checkpoint is
    // one a task refused. A few may be declined as the finished tasks close (Flink's own ending;
    // how many depends on the machine's speed at a 100 ms interval). A hook that made its task
    // close while compacting would decline every checkpoint of the wait above, which then would
    // never see one pending.
    Map<String, Long> failures = failureMessages(checkpoints);
    assertThat(
            failures.entrySet().stream()
                .filter(failure -> failure.getKey().contains("declined"))
                .mapToLong(Map.Entry::getValue)
                .sum())
        .as("declined checkpoints: %s", failures)
        .isLessThanOrEqualTo(3);

    Table table = catalog.loadTable(TestJobs.IDENTIFIER);
    assertThat(HookGauges.value("compactions")).as("the waiting compaction finished").isEqualTo(1);
    assertThat(TestJobs.compactions(table)).isPositive();
    assertThat(table.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
    TestJobs.assertHoldsExactly(catalog, ROWS);
  }

  private static CheckpointStatsSnapshot checkpoints(MiniCluster miniCluster, JobClient job) {
    try {
      return miniCluster.getExecutionGraph(job.getJobID()).get().getCheckpointStatsSnapshot();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read the job's checkpoints", e);
    }
  }

  private static Map<String, Long> failureMessages(CheckpointStatsSnapshot checkpoints) {
    return checkpoints.getHistory().getCheckpoints().stream()
        .filter(FailedCheckpointStats.class::isInstance)
        .map(checkpoint -> String.valueOf(((FailedCheckpointStats) checkpoint).getFailureMessage()))
        .collect(Collectors.groupingBy(message -> message, TreeMap::new, Collectors.counting()));
  }
}
