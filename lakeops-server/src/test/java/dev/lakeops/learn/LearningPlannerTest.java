package dev.lakeops.learn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.Strategy;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunFigures;
import dev.lakeops.ledger.RunHandle;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunStart;
import dev.lakeops.observe.StoreSession;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Predictions and sizing from a ledger seeded with known runs, in a real SQLite store. */
class LearningPlannerTest {
  private static final long MB = 1L << 20;
  private static final PlannerDefaults DEFAULTS =
      new PlannerDefaults(
          Map.of(
              RewritePath.DECODE_FREE, 200e6, RewritePath.COLUMNAR, 30e6, RewritePath.SORT, 15e6),
          Map.of(RewritePath.DECODE_FREE, 0.5, RewritePath.COLUMNAR, 2.0, RewritePath.SORT, 3.0),
          ByteSize.ofMegabytes(64),
          0.25,
          2,
          ByteSize.ofMegabytes(1024),
          5);

  @TempDir Path directory;
  private SteppingClock clock;
  private JdbcRunLedger ledger;
  private StoreSession session;
  private RunPlanStore plans;
  private LearningPlanner planner;

  @BeforeEach
  void open() {
    Path file = directory.resolve("lakeops.db");
    clock = new SteppingClock(Instant.parse("2026-12-01T00:00:00Z"));
    ledger = JdbcRunLedger.open(StoreLocation.sqliteFile(file), clock);
    session = StoreSession.open("sqlite:" + file);
    plans = new RunPlanStore(session, "lakeops");
    planner = new LearningPlanner(plans, DEFAULTS);
  }

  @AfterEach
  void close() {
    session.close();
    ledger.close();
  }

  @Test
  void withoutHistoryTheDefaultsApplyAndTheRunGetsTheWholeCeiling() {
    RunPlan plan =
        planner.plan(
            "db.t", Strategy.BINPACK, 300 * MB, ByteSize.ofMegabytes(256), PinnedValues.NONE);

    assertThat(plan.learned()).isFalse();
    assertThat(plan.path()).isEqualTo(RewritePath.COLUMNAR);
    assertThat(plan.memoryShare()).isEqualTo(ByteSize.ofMegabytes(256));
    assertThat(plan.maxConcurrentGroups()).isEqualTo(2);
    // 300 MB at the default 30e6 B/s per core on 2 cores
    assertThat(plan.predictedDuration())
        .isEqualTo(Duration.ofMillis(Math.round(1000.0 * 300 * MB / 60e6)));
    assertThat(plan.options())
        .containsExactly(Map.entry(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES, "2"));
  }

  @Test
  void predictionsAndSizingComeFromTheTablesOwnRuns() {
    // four columnar runs: 100 MB in 4 s on 2 cores (12.5 MB/s per core), peak 80 MB (0.8 per input
    // byte)
    for (int run = 0; run < 4; run++) {
      seed("db.t", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(4), 80 * MB, 2, 0);
    }
    // another table's much faster runs must not count
    seed("db.other", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(1), 10 * MB, 2, 0);

    RunPlan plan =
        planner.plan(
            "db.t", Strategy.BINPACK, 200 * MB, ByteSize.ofMegabytes(512), PinnedValues.NONE);

    assertThat(plan.learned()).isTrue();
    assertThat(plan.path()).isEqualTo(RewritePath.COLUMNAR);
    // 0.8 x 200 MB = 160 MB by input, but memory levelled off at 40 MB per group (80 MB over 2
    // groups):
    // a 100 MB share, of which the runs held 80 / 128 at their peak
    assertThat(plan.memoryShare()).isEqualTo(ByteSize.ofBytes(100 * MB));
    assertThat(plan.predictedPeakMemory())
        .isEqualTo(ByteSize.ofBytes(Math.round(0.625 * 100 * MB)));
    // 100 MB share / 40 MB per group, at most 2 cores
    assertThat(plan.maxConcurrentGroups()).isEqualTo(2);
    // 200 MB at 12.5 MB/s per core on 2 cores
    assertThat(plan.predictedDuration()).isEqualTo(Duration.ofSeconds(8));
    assertThat(plan.partialProgress()).isFalse();
    assertThat(plan.options()).doesNotContainKey(RewriteOptions.PARTIAL_PROGRESS_ENABLED);

    // a small input needs less than the level-off
    RunPlan small =
        planner.plan(
            "db.t", Strategy.BINPACK, 50 * MB, ByteSize.ofMegabytes(512), PinnedValues.NONE);
    assertThat(small.predictedPeakMemory()).isEqualTo(ByteSize.ofBytes(40 * MB));
    assertThat(small.memoryShare()).isEqualTo(ByteSize.ofBytes(64 * MB));

    // the share never passes the ceiling: one group fits 64 MB
    RunPlan capped =
        planner.plan(
            "db.t", Strategy.BINPACK, 2048 * MB, ByteSize.ofMegabytes(64), PinnedValues.NONE);
    assertThat(capped.memoryShare()).isEqualTo(ByteSize.ofMegabytes(64));
    assertThat(capped.maxConcurrentGroups()).isEqualTo(1);
    assertThat(capped.predictedPeakMemory()).isEqualTo(ByteSize.ofBytes(40 * MB));

    // sort has no history on this table yet: its defaults apply
    RunPlan sort =
        planner.plan("db.t", Strategy.SORT, 200 * MB, ByteSize.ofMegabytes(512), PinnedValues.NONE);
    assertThat(sort.path()).isEqualTo(RewritePath.SORT);
    assertThat(sort.learned()).isFalse();
  }

  @Test
  void recentRunsWeighMoreSoThePlannerFollowsATableThatSlowsDown() {
    seed("db.t", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(2), 50 * MB, 1, 0);
    seed("db.t", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(4), 50 * MB, 1, 0);

    RunPlan plan =
        planner.plan(
            "db.t", Strategy.BINPACK, 100 * MB, ByteSize.ofMegabytes(64), PinnedValues.NONE);

    // weights 1 and 2: (1 x 50 MB/s + 2 x 25 MB/s) / 3 = 33.3 MB/s per core, one group fits 64 MB
    assertThat(plan.maxConcurrentGroups()).isEqualTo(1);
    assertThat(plan.predictedDuration().toMillis()).isEqualTo(3000);
  }

  @Test
  void conflictsTurnOnPartialProgressAndSmallerGroupsUnlessThePolicyPinsThem() {
    seed("db.t", RewritePath.DECODE_FREE, 100 * MB, Duration.ofSeconds(1), 20 * MB, 2, 0);
    seed("db.t", RewritePath.DECODE_FREE, 100 * MB, Duration.ofSeconds(1), 20 * MB, 2, 3);

    RunPlan plan =
        planner.plan(
            "db.t", Strategy.BINPACK, 100 * MB, ByteSize.ofMegabytes(256), PinnedValues.NONE);
    assertThat(plan.path()).isEqualTo(RewritePath.DECODE_FREE);
    assertThat(plan.partialProgress()).isTrue();
    assertThat(plan.options())
        .containsEntry(RewriteOptions.PARTIAL_PROGRESS_ENABLED, "true")
        .containsEntry(RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES, String.valueOf(1024 * MB));

    RunPlan pinned =
        planner.plan(
            "db.t",
            Strategy.BINPACK,
            100 * MB,
            ByteSize.ofMegabytes(256),
            PinnedValues.options(
                Map.of(
                    RewriteOptions.PARTIAL_PROGRESS_ENABLED,
                    "false",
                    RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES,
                    "1")));
    assertThat(pinned.options())
        .doesNotContainKeys(
            RewriteOptions.PARTIAL_PROGRESS_ENABLED,
            RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES)
        .containsEntry(RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES, String.valueOf(1024 * MB));
    assertThat(pinned.partialProgress()).isFalse();
    assertThat(pinned.maxConcurrentGroups()).isEqualTo(1);
  }

  @Test
  void everyLearnedValueCanBePinnedByPolicy() {
    // history: 40 MB per group on 2 groups, and a conflict: the planner would learn a 100 MB share,
    // 2 groups, partial progress and 1 GB groups
    for (int run = 0; run < 3; run++) {
      seed(
          "db.t",
          RewritePath.COLUMNAR,
          100 * MB,
          Duration.ofSeconds(4),
          80 * MB,
          2,
          run == 2 ? 1 : 0);
    }
    RunPlan learned =
        planner.plan(
            "db.t", Strategy.BINPACK, 200 * MB, ByteSize.ofMegabytes(512), PinnedValues.NONE);
    assertThat(learned.memoryShare()).isEqualTo(ByteSize.ofBytes(100 * MB));
    assertThat(learned.maxConcurrentGroups()).isEqualTo(2);
    assertThat(learned.partialProgress()).isTrue();
    assertThat(learned.options())
        .containsEntry(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES, "2")
        .containsEntry(RewriteOptions.PARTIAL_PROGRESS_ENABLED, "true")
        .containsEntry(RewriteOptions.MAX_FILE_GROUP_SIZE_BYTES, String.valueOf(1024 * MB));

    PolicyFile file =
        PolicyFile.parse(
            "tables:\n  db.t:\n    compact.memory: 300MB\n    compact.options:\n"
                + "      max-concurrent-file-group-rewrites: 1\n      partial-progress.enabled: false\n"
                + "      max-file-group-size-bytes: 536870912\n",
            "policy.yaml");
    EffectivePolicy policy =
        new PolicyResolver(file).resolve(TableIdentifier.parse("db.t"), Map.of());
    RunPlan pinned =
        planner.plan(
            "db.t", Strategy.BINPACK, 200 * MB, ByteSize.ofMegabytes(512), PinnedValues.of(policy));

    assertThat(pinned.learned()).isTrue();
    assertThat(pinned.memoryShare()).isEqualTo(ByteSize.ofMegabytes(300));
    assertThat(pinned.maxConcurrentGroups()).isEqualTo(1);
    assertThat(pinned.partialProgress()).isFalse();
    // the plan sets none of the pinned options: the policy's values reach the compaction
    assertThat(pinned.options()).isEmpty();
    // the throughput is still learned: 200 MB at 12.5 MB/s per core on the one pinned group
    assertThat(pinned.predictedDuration()).isEqualTo(Duration.ofSeconds(16));

    // a pinned share above the run's ceiling is capped by it
    RunPlan capped =
        planner.plan(
            "db.t", Strategy.BINPACK, 200 * MB, ByteSize.ofMegabytes(128), PinnedValues.of(policy));
    assertThat(capped.memoryShare()).isEqualTo(ByteSize.ofMegabytes(128));

    // a table without history gets its pinned share instead of the whole ceiling
    RunPlan fresh =
        planner.plan(
            "db.new",
            Strategy.BINPACK,
            200 * MB,
            ByteSize.ofMegabytes(512),
            new PinnedValues(Optional.of(ByteSize.ofMegabytes(96)), Map.of()));
    assertThat(fresh.learned()).isFalse();
    assertThat(fresh.memoryShare()).isEqualTo(ByteSize.ofMegabytes(96));
  }

  @Test
  void conflictsOfRunsThePlannerDidNotSizeCountToo() {
    seed("db.t", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(4), 80 * MB, 2, 0);
    // a compaction from another engine (no plan of the daemon) that hit 3 conflicts
    RunHandle spark =
        ledger.start(new RunStart("lakeops", "db.t", "compact", "requested", RunHost.SPARK, false));
    clock.advance(Duration.ofSeconds(3));
    spark.succeeded(
        new RunFigures(10, 1, 100 * MB, 100 * MB, 0, 0, 50 * MB, OptionalLong.of(2), 3, 1));

    RunPlan plan =
        planner.plan(
            "db.t", Strategy.BINPACK, 100 * MB, ByteSize.ofMegabytes(512), PinnedValues.NONE);

    assertThat(plans.recentCommitConflicts("db.t", 5)).isEqualTo(3);
    assertThat(plan.partialProgress()).isTrue();
    assertThat(plan.options()).containsEntry(RewriteOptions.PARTIAL_PROGRESS_ENABLED, "true");
  }

  @Test
  void predictionsAreStoredPerRunForLakeopsRuns() {
    String runId =
        seed("db.t", RewritePath.COLUMNAR, 100 * MB, Duration.ofSeconds(4), 80 * MB, 2, 0);

    assertThat(plans.predictions(List.of(runId, "no-such-run")))
        .containsOnlyKeys(runId)
        .containsEntry(runId, new RunPlanStore.Prediction(5.0, 90 * MB));
  }

  /** One succeeded compaction in the ledger with its plan (predicted 5 s, 90 MB) and outcome. */
  private String seed(
      String table,
      RewritePath path,
      long inputBytes,
      Duration duration,
      long peak,
      int cores,
      long conflicts) {
    RunHandle run =
        ledger.start(new RunStart("lakeops", table, "compact", "test", RunHost.SERVE, false));
    plans.started(
        run.runId(),
        table,
        new RunPlan(
            path,
            Duration.ofSeconds(5),
            ByteSize.ofBytes(90 * MB),
            ByteSize.ofBytes(128 * MB),
            cores,
            false,
            Map.of(),
            false));
    clock.advance(duration);
    run.succeeded(new RunFigures(10, 1, inputBytes, inputBytes, 0, 0, peak, OptionalLong.of(1)));
    plans.finished(run.runId(), path, cores, conflicts);
    clock.advance(Duration.ofMinutes(10));
    return run.runId();
  }

  /** A clock the test moves. */
  private static final class SteppingClock extends Clock {
    private Instant now;

    SteppingClock(Instant start) {
      now = start;
    }

    void advance(Duration duration) {
      now = now.plus(duration);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
