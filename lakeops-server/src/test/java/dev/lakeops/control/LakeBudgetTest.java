package dev.lakeops.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.learn.CompactionAdvisor;
import dev.lakeops.learn.RewritePath;
import dev.lakeops.learn.RunPlan;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.LakeSettings;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.unit.ByteSize;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/** The lake-wide budget and the queue's order, without tables. */
class LakeBudgetTest {
  private static final Instant NOW = Instant.parse("2026-12-03T08:00:00Z");

  @Test
  void carvesEachCompactionsMemoryFromTheTotalAndMakesTheRestWait() {
    LakeBudget budget =
        new LakeBudget(new LakeSettings(3, ByteSize.ofMegabytes(300), Optional.empty()));
    MaintenanceJob first = compaction("a", 10, 1_000, NOW);
    MaintenanceJob second = compaction("b", 10, 1_000, NOW);
    MaintenanceJob sameTable = compaction("a", 10, 1_000, NOW);

    assertThat(budget.jobMemory()).isEqualTo(ByteSize.ofMegabytes(100));
    assertThat(budget.tryReserve(first, NOW)).hasValue(ByteSize.ofMegabytes(100));
    assertThat(budget.whyWaiting(sameTable, NOW)).hasValue("another operation runs on the table");
    assertThat(budget.tryReserve(second, NOW)).hasValue(ByteSize.ofMegabytes(100));
    assertThat(budget.tryReserve(compaction("c", 1, 1, NOW), NOW)).isPresent();
    assertThat(budget.whyWaiting(compaction("d", 1, 1, NOW), NOW))
        .hasValue("max-concurrent-tables 3 reached");

    budget.release(TableIdentifier.of("db", "a"), ByteSize.ofMegabytes(100));
    assertThat(budget.runningTables()).isEqualTo(2);
    assertThat(budget.tryReserve(compaction("d", 1, 1, NOW), NOW))
        .hasValue(ByteSize.ofMegabytes(100));
  }

  @Test
  void aJobThatDoesNotFitTheMemoryWaits() {
    LakeBudget budget =
        new LakeBudget(new LakeSettings(4, ByteSize.ofMegabytes(100), Optional.empty()));
    assertThat(budget.jobMemory()).isEqualTo(ByteSize.ofMegabytes(64));
    assertThat(budget.tryReserve(compaction("a", 1, 1, NOW), NOW)).isPresent();
    assertThat(budget.whyWaiting(compaction("b", 1, 1, NOW), NOW))
        .hasValue("memory: 64.0MB of 100.0MB in use, needs 64.0MB");
    assertThat(budget.tryReserve(expiry("b", NOW), NOW)).hasValue(ByteSize.ofBytes(0));
  }

  @Test
  void maxBytesPerHourHoldsCompactionsUntilTheHourHasRoom() {
    LakeBudget budget =
        new LakeBudget(
            new LakeSettings(
                4, ByteSize.ofMegabytes(1024), Optional.of(ByteSize.ofMegabytes(100))));
    long sixtyMegabytes = 60L << 20;
    MaintenanceJob first = compaction("a", 10, sixtyMegabytes, NOW);
    assertThat(budget.tryReserve(first, NOW)).isPresent();
    budget.release(first.table(), budget.jobMemory());
    assertThat(budget.whyWaiting(compaction("b", 10, sixtyMegabytes, NOW), NOW.plusSeconds(60)))
        .hasValue("max-bytes-per-hour 100.0MB: 60.0MB rewritten in the last hour");
    assertThat(
            budget.whyWaiting(
                compaction("b", 10, sixtyMegabytes, NOW), NOW.plus(Duration.ofMinutes(61))))
        .isEmpty();
    assertThat(
            budget.tryReserve(
                compaction("c", 10, 200L << 20, NOW), NOW.plus(Duration.ofMinutes(61))))
        .isPresent();
  }

  @Test
  void queueStartsTheBestBenefitPerCostFirstOrphansLastAndAgesWaitingJobs() {
    JobQueue queue = new JobQueue();
    LakeBudget budget =
        new LakeBudget(new LakeSettings(1, ByteSize.ofMegabytes(256), Optional.empty()));
    queue.add(orphans("o", NOW));
    queue.add(compaction("cheap", 10, 1_000, NOW));
    queue.add(compaction("expensive", 10, 100_000, NOW.minus(Duration.ofMinutes(10))));
    queue.add(compaction("middle", 10, 10_000, NOW));

    List<String> order = new java.util.ArrayList<>();
    while (!queue.isEmpty()) {
      JobQueue.Started started = queue.startNext(budget, NOW).orElseThrow();
      order.add(started.job().table().name());
      budget.release(started.job().table(), started.memory());
    }
    // "expensive" waited 10 minutes: 2^5 = 32 times its benefit per cost, above "middle", below
    // "cheap"
    assertThat(order).containsExactly("cheap", "expensive", "middle", "o");
  }

  @Test
  void withAPlannerTheQueueOrdersByBenefitPerPredictedSecondLearnedOrNot() {
    // "copied" moves 10x the bytes of "decoded" but its path is 100x faster: per byte "decoded"
    // would go first, per predicted second "copied" does (neither plan is learned yet)
    Map<String, Duration> predicted =
        Map.of("db.decoded", Duration.ofSeconds(10), "db.copied", Duration.ofMillis(1000));
    CompactionAdvisor advisor =
        new CompactionAdvisor() {
          @Override
          public Optional<RunPlan> plan(
              String table, EffectivePolicy policy, long inputBytes, ByteSize ceiling) {
            return Optional.of(
                new RunPlan(
                    RewritePath.COLUMNAR,
                    predicted.get(table),
                    ByteSize.ofMegabytes(10),
                    ceiling,
                    2,
                    false,
                    Map.of(),
                    false));
          }

          @Override
          public void started(String runId, String table, RunPlan plan) {}

          @Override
          public void finished(
              String runId,
              String table,
              RunPlan plan,
              dev.lakeops.compact.CompactionResult result) {}
        };
    JobQueue queue = new JobQueue(advisor);
    LakeBudget budget =
        new LakeBudget(new LakeSettings(1, ByteSize.ofMegabytes(256), Optional.empty()), advisor);
    queue.add(compaction("decoded", 10, 1_000, NOW));
    queue.add(compaction("copied", 10, 10_000, NOW));

    assertThat(queue.ordered(budget, NOW))
        .extracting(job -> job.table().name())
        .containsExactly("copied", "decoded");
    JobQueue perByte = new JobQueue();
    perByte.add(compaction("decoded", 10, 1_000, NOW));
    perByte.add(compaction("copied", 10, 10_000, NOW));
    assertThat(perByte.ordered(new LakeBudget(budget.settings()), NOW))
        .extracting(job -> job.table().name())
        .containsExactly("decoded", "copied");
  }

  @Test
  void aPinnedCompactMemoryIsWhatTheCompactionTakesFromTheBudget() {
    LakeBudget budget =
        new LakeBudget(new LakeSettings(2, ByteSize.ofMegabytes(512), Optional.empty()));
    TableIdentifier identifier = TableIdentifier.of("db", "pinned");
    EffectivePolicy pinned =
        new PolicyResolver(
                PolicyFile.parse("tables:\n  db.pinned:\n    compact.memory: 96MB\n", "p.yaml"))
            .resolve(identifier, Map.of());
    MaintenanceJob job =
        new MaintenanceJob(
            identifier,
            new DueOperation(
                MaintenanceOperation.COMPACT,
                "test",
                List.of(),
                Optional.empty(),
                Map.of(),
                10,
                1_000),
            pinned,
            NOW);

    assertThat(budget.tryReserve(job, NOW)).hasValue(ByteSize.ofMegabytes(96));
    assertThat(budget.memoryInUseBytes()).isEqualTo(96L << 20);
    // without the pin: the equal share
    assertThat(budget.tryReserve(compaction("other", 10, 1_000, NOW), NOW))
        .hasValue(ByteSize.ofMegabytes(256));
  }

  private static MaintenanceJob compaction(
      String table, long benefit, long cost, Instant queuedAt) {
    return job(table, MaintenanceOperation.COMPACT, benefit, cost, queuedAt);
  }

  private static MaintenanceJob expiry(String table, Instant queuedAt) {
    return job(table, MaintenanceOperation.EXPIRE_SNAPSHOTS, 1, 1, queuedAt);
  }

  private static MaintenanceJob orphans(String table, Instant queuedAt) {
    return job(table, MaintenanceOperation.REMOVE_ORPHAN_FILES, 1, 1, queuedAt);
  }

  private static MaintenanceJob job(
      String table, MaintenanceOperation operation, long benefit, long cost, Instant queuedAt) {
    TableIdentifier identifier = TableIdentifier.of("db", table);
    return new MaintenanceJob(
        identifier,
        new DueOperation(operation, "test", List.of(), Optional.empty(), Map.of(), benefit, cost),
        EffectivePolicy.defaults(identifier),
        queuedAt);
  }
}
