package dev.lakeops.trigger;

import static dev.lakeops.trigger.TriggerTestSupport.liveDataFiles;
import static dev.lakeops.trigger.TriggerTestSupport.only;
import static dev.lakeops.trigger.TriggerTestSupport.orphanRunAgo;
import static dev.lakeops.trigger.TriggerTestSupport.policy;
import static dev.lakeops.trigger.TriggerTestSupport.recentOrphanRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.PartitionHealth;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaintenanceTriggersTest {
  private static final MaintenanceTriggers TRIGGERS = new MaintenanceTriggers();

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void idleHealthyTableHasNothingDue() {
    Table table = SimpleTables.create(catalog, "healthy", 2, Map.of());
    for (int part = 0; part < 4; part++) {
      SimpleTables.append(table, part, part * 100L, 50);
    }
    Instant now = Instant.now();

    TriggerDecision decision = decide(table, Map.of(), orphanRunAgo(now, Duration.ofHours(2)), now);

    assertThat(decision.due()).isEmpty();
    assertThat(decision.held())
        .extracting(HeldOperation::operation)
        .containsExactly(MaintenanceOperation.REMOVE_ORPHAN_FILES);
    assertThat(decision.held().get(0).reason())
        .isEqualTo("orphans.interval 1d: last cleanup 2h ago");
  }

  /**
   * Only the fragmented partition is planned, and compacting with what the trigger hands over
   * touches only it.
   */
  @Test
  void fragmentedPartitionIsCompactedAloneWithTheFilterTheTriggerGives() {
    Table table = SimpleTables.create(catalog, "fragmented", 2, Map.of());
    appendFiles(table, 0, 13, 0);
    appendFiles(table, 1, 3, 10_000);
    SimpleTables.append(table, 2, 20_000, 10);
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));

    assertThat(compact.reason()).isEqualTo("part=0: 13 small files >= 12");
    assertThat(compact.partitions()).extracting(PartitionHealth::path).containsExactly("part=0");
    assertThat(compact.where()).contains("\"part\" = 0");
    assertThat(compact.rewriteOptions())
        .containsEntry("max-file-size-bytes", String.valueOf(Long.MAX_VALUE))
        .doesNotContainKey("delete-file-threshold");
    assertThat(compact.estimatedBenefit()).isEqualTo(12);
    assertThat(compact.estimatedCostBytes())
        .isEqualTo(compact.partitions().get(0).smallDataBytes());

    RowFingerprint before = RowFingerprint.of(table);
    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .where(compact.where().orElseThrow())
                    .options(compact.rewriteOptions())
                    .build());
    assertThat(result.inputFiles()).isEqualTo(13);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    TableHealthReport after = new TableHealthTracker().evaluate(table);
    assertThat(after.partitions())
        .extracting(PartitionHealth::path, PartitionHealth::dataFiles)
        .containsExactly(tuple("part=0", 1L), tuple("part=1", 3L), tuple("part=2", 1L));
  }

  /**
   * A day partition becomes a time range; files at or above the small-file ratio stay as they are.
   */
  @Test
  void dayPartitionBecomesATimeRangeAndLargeFilesAreLeftAlone() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.required(2, "ts", Types.TimestampType.withZone()));
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "events"),
            schema,
            PartitionSpec.builderFor(schema).day("ts").build(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    OffsetDateTime first = OffsetDateTime.of(2026, 12, 1, 10, 0, 0, 0, ZoneOffset.UTC);
    DataFile large = appendEvents(table, first, 0, 2000);
    table
        .updateProperties()
        .set(
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            String.valueOf(large.fileSizeInBytes() + 100))
        .commit();
    for (int file = 0; file < 5; file++) {
      appendEvents(table, first.plusMinutes(file), 10_000 + file * 10, 10);
    }
    // under half the threshold: not compacted along with the other day
    appendEvents(table, first.plusDays(1), 50_000, 10);
    appendEvents(table, first.plusDays(1), 60_000, 10);
    Instant now = Instant.now();

    DueOperation compact =
        only(
            MaintenanceOperation.COMPACT,
            decide(
                table, Map.of("lakeops.compact.min-small-files", "5"), recentOrphanRun(now), now));

    assertThat(compact.reason()).isEqualTo("ts_day=2026-12-01: 5 small files >= 5");
    assertThat(compact.where())
        .contains(
            "(\"ts\" >= '2026-12-01T00:00:00+00:00' AND \"ts\" < '2026-12-02T00:00:00+00:00')");
    RowFingerprint before = RowFingerprint.of(table);
    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .where(compact.where().orElseThrow())
                    .options(compact.rewriteOptions())
                    .build());
    assertThat(result.inputFiles()).as("the large file of that day is not rewritten").isEqualTo(5);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(table.currentSnapshot().addedDataFiles(table.io())).hasSize(1);
  }

  /**
   * A bucket field cannot be written as a row filter: it is left out, the filter selects a
   * superset.
   */
  @Test
  void partitionFieldsOfOtherTransformsAreLeftOutOfTheFilter() {
    Table table =
        SimpleTables.create(catalog, "bucketed", 2, Map.of("lakeops.compact.min-small-files", "3"));
    table.updateSpec().addField("id_bucket", Expressions.bucket("id", 2)).commit();
    for (int file = 0; file < 3; file++) {
      SimpleTables.append(table, 4, 0, 1);
    }
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));

    assertThat(compact.partitions())
        .singleElement()
        .extracting(PartitionHealth::path)
        .asString()
        .startsWith("part=4/id_bucket=");
    assertThat(compact.where()).contains("\"part\" = 4");
  }

  @Test
  void deleteFilesTriggerACompactionThatAppliesThem() {
    Table table =
        SimpleTables.create(catalog, "cdc", 2, Map.of("lakeops.compact.min-delete-files", "3"));
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 3; file++) {
      files.add(SimpleTables.append(table, 0, file * 100L, 100));
    }
    for (DataFile file : files) {
      table.newRowDelta().addDeletes(TableFiles.writePositionDeletes(table, file, 3, 4)).commit();
    }
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));

    assertThat(compact.reason())
        .isEqualTo(
            "part=0: 3 delete files >= 3; compact: rewriting the delete files removes 2 per 4.5KB"
                + " written, compacting the data they touch 3 per 3.6KB");
    assertThat(compact.rewriteOptions()).containsEntry("delete-file-threshold", "1");
    assertThat(compact.estimatedBenefit()).isEqualTo(2 + 3);
    RowFingerprint before = RowFingerprint.of(table);
    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .where(compact.where().orElseThrow())
                .options(compact.rewriteOptions())
                .build());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(294);
    TableHealthReport after = new TableHealthTracker().evaluate(table);
    assertThat(after.table().deleteFiles()).isZero();
    assertThat(
            TRIGGERS.evaluate(
                after, policy(table, Map.of()), recentOrphanRun(now), now.plusSeconds(3600)))
        .isEmpty();
  }

  @Test
  void oneCommitOfManySmallFilesTriggersCompactionOfThePartitionsItFragmented() {
    Table table = SimpleTables.create(catalog, "batch", 2, Map.of());
    SimpleTables.append(table, 0, 0, 10);
    AppendFiles batch = table.newAppend();
    for (int part = 0; part < 12; part++) {
      batch.appendFile(
          TableFiles.write(
              table,
              SimpleTables.partition(table, part),
              SimpleTables.rows(table.schema(), 1000L * (part + 1), 10, part)));
    }
    batch.commit();
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));

    assertThat(compact.partitions()).extracting(PartitionHealth::path).containsExactly("part=0");
    assertThat(compact.reason())
        .isEqualTo("part=0: 2 small files after a commit added 12 small files >= 12");
  }

  @Test
  void compactionWaitsForTheMinimumIntervalSinceTheLastOne() {
    Table table = SimpleTables.create(catalog, "interval", 2, Map.of());
    appendFiles(table, 0, 13, 0);
    Instant now = Instant.now();
    MaintenanceHistory history =
        recentOrphanRun(now)
            .withFinished(MaintenanceOperation.COMPACT, now.minus(Duration.ofMinutes(3)), false);

    TriggerDecision decision = decide(table, Map.of(), history, now);

    assertThat(decision.due()).isEmpty();
    HeldOperation held = decision.held().get(0);
    assertThat(held.operation()).isEqualTo(MaintenanceOperation.COMPACT);
    assertThat(held.reason())
        .isEqualTo(
            "part=0: 13 small files >= 12; held by compact.min-interval 10m: last compaction 3m ago");
    assertThat(held.notBefore()).contains(now.plus(Duration.ofMinutes(7)));
    assertThat(decide(table, Map.of(), history, now.plus(Duration.ofMinutes(8))).due())
        .extracting(DueOperation::operation)
        .containsExactly(MaintenanceOperation.COMPACT);
  }

  /**
   * Small files arriving fast enough to reach the threshold before the next check are compacted at
   * this one, while the table is still healthy; the same files gathered slowly wait.
   */
  @Test
  void partitionFillingUpBeforeTheNextCheckIsCompactedAtThisOne() {
    Table table =
        SimpleTables.create(catalog, "filling", 2, Map.of("lakeops.compact.min-interval", "10s"));
    appendFiles(table, 0, 8, 0);
    Instant now = Instant.now();
    MaintenanceHistory fast =
        recentOrphanRun(now)
            .withFinished(MaintenanceOperation.COMPACT, now.minusSeconds(24), false);

    DueOperation compact = only(MaintenanceOperation.COMPACT, decide(table, Map.of(), fast, now));

    assertThat(compact.reason())
        .isEqualTo(
            "part=0: 8 small files, 28 >= 12 expected by the next check at the rate they arrive");
    MaintenanceHistory slow =
        recentOrphanRun(now)
            .withFinished(MaintenanceOperation.COMPACT, now.minus(Duration.ofMinutes(10)), false);
    assertThat(decide(table, Map.of(), slow, now).due())
        .extracting(DueOperation::operation)
        .doesNotContain(MaintenanceOperation.COMPACT);
  }

  /**
   * A batch load is compacted at once; a trickle of small commits waits for compact.min-interval.
   */
  @Test
  void aBatchLoadIsNotHeldByTheMinimumInterval() {
    Table table = SimpleTables.create(catalog, "loads", 2, Map.of());
    appendFiles(table, 0, 4, 0);
    new TableCompactor()
        .compact(
            table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
    AppendFiles batch = table.newAppend();
    for (int file = 0; file < 12; file++) {
      batch.appendFile(
          TableFiles.write(
              table,
              SimpleTables.partition(table, 1),
              SimpleTables.rows(table.schema(), 1000L * (file + 1), 10, 1)));
    }
    batch.commit();
    Instant now = Instant.now();
    MaintenanceHistory history =
        recentOrphanRun(now)
            .withFinished(MaintenanceOperation.COMPACT, now.minusSeconds(30), false);

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), history, now));

    assertThat(compact.reason()).isEqualTo("part=1: 12 small files >= 12");
    assertThat(compact(table, compact).inputFiles()).isEqualTo(12);
    appendFiles(table, 0, 13, 5000);
    TriggerDecision trickle = decide(table, Map.of(), history, Instant.now());
    assertThat(trickle.due())
        .extracting(DueOperation::operation)
        .doesNotContain(MaintenanceOperation.COMPACT);
    assertThat(trickle.held().get(0).reason()).contains("held by compact.min-interval 10m");
  }

  /**
   * Convergence: a small file an earlier compaction wrote is not rewritten with every few new
   * files; it waits until a target file's worth of new data gathered or the outputs pile up.
   */
  @Test
  void smallCompactionOutputsWaitUntilTheyPileUp() {
    Table table =
        SimpleTables.create(
            catalog,
            "converging",
            2,
            Map.of("lakeops.compact.min-small-files", "4", "lakeops.compact.min-interval", "1s"));
    appendFiles(table, 0, 4, 0);
    Instant now = Instant.now().plus(Duration.ofMinutes(1));
    DueOperation first =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));
    assertThat(compact(table, first).inputFiles()).isEqualTo(4);
    String output = table.currentSnapshot().addedDataFiles(table.io()).iterator().next().location();

    appendFiles(table, 0, 3, 1000);
    DueOperation second =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));
    assertThat(second.reason()).isEqualTo("part=0: 4 small files >= 4");
    assertThat(compact(table, second).inputFiles()).as("the new files only").isEqualTo(3);
    assertThat(liveDataFiles(table)).contains(output).hasSize(2);

    appendFiles(table, 0, 2, 2000);
    DueOperation third =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));
    assertThat(compact(table, third).inputFiles()).as("the new files only").isEqualTo(2);
    assertThat(liveDataFiles(table)).contains(output).hasSize(3);

    appendFiles(table, 0, 1, 3000);
    DueOperation fourth =
        only(MaintenanceOperation.COMPACT, decide(table, Map.of(), recentOrphanRun(now), now));
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(compact(table, fourth).inputFiles())
        .as("3 outputs pile up (min-small-files - 1): all of them")
        .isEqualTo(4);
    assertThat(liveDataFiles(table)).doesNotContain(output).hasSize(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  private static CompactionResult compact(Table table, DueOperation due) {
    return new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .where(due.where().orElse(null))
                .options(due.rewriteOptions())
                .build());
  }

  /** A table whose compactions keep rewriting what earlier compactions wrote is backed off. */
  @Test
  void nonConvergingTableIsBackedOff() {
    Table table =
        SimpleTables.create(
            catalog,
            "churn",
            2,
            Map.of(
                "lakeops.compact.min-small-files", "3",
                "lakeops.compact.min-interval", "1s",
                "lakeops.compact.max-recompacted-share", "0.25"));
    for (int round = 0; round < 4; round++) {
      appendFiles(table, 0, 3, round * 1000L);
      new TableCompactor()
          .compact(
              table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());
    }
    appendFiles(table, 0, 3, 9000L);
    TableHealthReport health = new TableHealthTracker().evaluate(table);
    assertThat(health.convergence().compactions()).isEqualTo(4);
    assertThat(health.convergence().recompactedShare()).isGreaterThan(0.25);
    Instant now = Instant.now().plusSeconds(5);

    TriggerDecision decision =
        TRIGGERS.decide(health, policy(table, Map.of()), recentOrphanRun(now), now);

    assertThat(decision.due())
        .extracting(DueOperation::operation)
        .doesNotContain(MaintenanceOperation.COMPACT);
    assertThat(decision.held().get(0).reason())
        .startsWith(
            "part=0: 4 small files >= 3; backed off for compact.backoff 1h: the last 4 compactions rewrote")
        .endsWith("bytes written by earlier compactions > compact.max-recompacted-share 25%");
    assertThat(
            TRIGGERS.evaluate(
                health,
                policy(table, Map.of()),
                recentOrphanRun(now),
                now.plus(Duration.ofHours(2))))
        .extracting(DueOperation::operation)
        .contains(MaintenanceOperation.COMPACT);
  }

  @Test
  void snapshotsBeyondRetentionOlderThanTheCutoffAreExpired() {
    Table table =
        SimpleTables.create(catalog, "history", 2, Map.of("lakeops.expire.retain-last", "2"));
    for (int file = 0; file < 5; file++) {
      SimpleTables.append(table, file, file * 10L, 10);
    }
    Instant later = Instant.now().plus(Duration.ofDays(6));
    TableHealthReport health =
        new TableHealthTracker(Clock.fixed(later, ZoneOffset.UTC))
            .evaluate(table, policy(table, Map.of()).healthCriteria());

    DueOperation expire =
        TRIGGERS.evaluate(health, policy(table, Map.of()), recentOrphanRun(later), later).stream()
            .filter(operation -> operation.operation() == MaintenanceOperation.EXPIRE_SNAPSHOTS)
            .findFirst()
            .orElseThrow();

    assertThat(expire.reason())
        .isEqualTo("3 snapshots beyond expire.retain-last 2 older than expire.older-than 5d");
    assertThat(expire.estimatedBenefit()).isEqualTo(3);
    assertThat(new TableHealthTracker().evaluate(table).expirableSnapshots())
        .as("nothing is older than 5 days yet")
        .isZero();
  }

  @Test
  void orphanCleanupRunsAtMostEveryIntervalAndAgainAfterAFailure() {
    Table table = SimpleTables.create(catalog, "orphans", 2, Map.of());
    SimpleTables.append(table, 0, 0, 10);
    Instant now = Instant.now();

    assertThat(
            only(
                    MaintenanceOperation.REMOVE_ORPHAN_FILES,
                    decide(table, Map.of(), MaintenanceHistory.none(), now))
                .reason())
        .isEqualTo("no orphan cleanup recorded (files older than 3d)");
    assertThat(decide(table, Map.of(), orphanRunAgo(now, Duration.ofHours(23)), now).due())
        .isEmpty();
    assertThat(
            only(
                    MaintenanceOperation.REMOVE_ORPHAN_FILES,
                    decide(table, Map.of(), orphanRunAgo(now, Duration.ofHours(25)), now))
                .reason())
        .isEqualTo("last orphan cleanup 25h ago >= orphans.interval 1d (files older than 3d)");
    MaintenanceHistory failed =
        MaintenanceHistory.none()
            .withFinished(MaintenanceOperation.REMOVE_ORPHAN_FILES, now.minusSeconds(60), true);
    assertThat(
            only(MaintenanceOperation.REMOVE_ORPHAN_FILES, decide(table, Map.of(), failed, now))
                .reason())
        .isEqualTo("the last orphan cleanup (1m ago) failed (files older than 3d)");
    assertThat(
            decide(
                    table,
                    Map.of("lakeops.orphans.enabled", "false"),
                    MaintenanceHistory.none(),
                    now)
                .due())
        .isEmpty();
  }

  @Test
  void manySmallManifestsAreRewritten() {
    Table table =
        SimpleTables.create(catalog, "manifests", 2, Map.of("lakeops.manifests.min-count", "6"));
    for (int file = 0; file < 6; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
    Instant now = Instant.now();

    DueOperation rewrite =
        only(
            MaintenanceOperation.REWRITE_MANIFESTS,
            decide(table, Map.of(), recentOrphanRun(now), now));

    assertThat(rewrite.reason()).startsWith("6 manifests >= manifests.min-count 6, averaging ");
    assertThat(rewrite.estimatedBenefit()).isEqualTo(5);
  }

  @Test
  void disabledTableHasNothingDue() {
    Table table = SimpleTables.create(catalog, "disabled", 2, Map.of("lakeops.enabled", "false"));
    appendFiles(table, 0, 13, 0);

    assertThat(decide(table, Map.of(), MaintenanceHistory.none(), Instant.now()).due()).isEmpty();
  }

  @Test
  void evaluationIntervalGrowsWhileHealthyAndShrinksWhenDegrading() {
    Table table = SimpleTables.create(catalog, "interval", 2, Map.of());
    SimpleTables.append(table, 0, 0, 10);
    TableHealthTracker tracker = new TableHealthTracker();
    EffectivePolicy policy = policy(table, Map.of());
    TableHealthReport healthy = tracker.evaluate(table);
    Instant written = healthy.lastCommit().orElseThrow();
    Instant idle = written.plus(Duration.ofHours(2));

    Duration grown =
        TRIGGERS.nextEvaluationDelay(
            Optional.of(healthy), healthy, Duration.ofMinutes(4), false, policy, idle);
    Duration capped =
        TRIGGERS.nextEvaluationDelay(
            Optional.of(healthy), healthy, Duration.ofMinutes(12), false, policy, idle);
    Duration active =
        TRIGGERS.nextEvaluationDelay(
            Optional.of(healthy),
            healthy,
            Duration.ofMinutes(4),
            false,
            policy,
            written.plus(Duration.ofMinutes(10)));
    Duration justWritten =
        TRIGGERS.nextEvaluationDelay(
            Optional.of(healthy),
            healthy,
            Duration.ofMinutes(4),
            false,
            policy,
            written.plusSeconds(30));
    appendFiles(table, 0, 13, 100);
    TableHealthReport degraded = tracker.evaluate(table);
    Duration shrunk =
        TRIGGERS.nextEvaluationDelay(
            Optional.of(healthy), degraded, Duration.ofMinutes(8), false, policy, idle);

    assertThat(grown).isEqualTo(Duration.ofMinutes(8));
    assertThat(capped).isEqualTo(Duration.ofMinutes(15));
    assertThat(active)
        .as("a quarter of the 10 minutes since the last commit")
        .isEqualTo(Duration.ofSeconds(150));
    assertThat(justWritten).as("never under poll-interval").isEqualTo(Duration.ofMinutes(1));
    assertThat(degraded.score().score()).isLessThan(healthy.score().score());
    assertThat(shrunk).isEqualTo(Duration.ofMinutes(1));
  }

  private TriggerDecision decide(
      Table table, Map<String, String> extraProperties, MaintenanceHistory history, Instant now) {
    EffectivePolicy policy = policy(table, extraProperties);
    TableHealthReport health =
        new TableHealthTracker(Clock.fixed(now, ZoneOffset.UTC))
            .evaluate(table, policy.healthCriteria());
    return TRIGGERS.decide(health, policy, history, now);
  }

  /** {@code count} files of 10 rows into {@code part}, three per commit. */
  private static void appendFiles(Table table, int part, int count, long firstId) {
    AppendFiles append = null;
    for (int file = 0; file < count; file++) {
      if (append == null) {
        append = table.newAppend();
      }
      append.appendFile(
          TableFiles.write(
              table,
              SimpleTables.partition(table, part),
              SimpleTables.rows(table.schema(), firstId + file * 10L, 10, part)));
      if (file % 3 == 2) {
        append.commit();
        append = null;
      }
    }
    if (append != null) {
      append.commit();
    }
  }

  private static DataFile appendEvents(Table table, OffsetDateTime start, long firstId, int count) {
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      GenericRecord row = GenericRecord.create(table.schema());
      row.setField("id", firstId + index);
      row.setField("ts", start.plusSeconds(index));
      rows.add(row);
    }
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(rows.get(0)));
    return TableFiles.append(table, key, rows);
  }
}
