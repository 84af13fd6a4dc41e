package dev.lakeops.trigger;

import static dev.lakeops.trigger.TriggerTestSupport.liveDataFiles;
import static dev.lakeops.trigger.TriggerTestSupport.only;
import static dev.lakeops.trigger.TriggerTestSupport.policy;
import static dev.lakeops.trigger.TriggerTestSupport.recentOrphanRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.deletes.PositionDeleteRewriter;
import dev.lakeops.expression.WhereParser;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per partition, serve rewrites the data files the deletes touch, compacts the position delete
 * files alone, or waits, by delete files removed per byte written; on real tables, with the rows
 * unchanged by what it chose.
 */
class DeleteFileChoiceTest {
  private static final MaintenanceTriggers TRIGGERS = new MaintenanceTriggers();

  /**
   * Data files of 2,000 rows are not small at this target: compacting them is not otherwise due.
   */
  private static final Map<String, String> LARGE_FILES =
      Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "4096");

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void deleteFilesOfLargeDataFilesAreRewrittenAndTheDataFilesLeftAlone() {
    Table table = SimpleTables.create(catalog, "cdc", 2, withMinDeleteFiles(LARGE_FILES, 6));
    deleteFromLargeFiles(table, 0, 6);
    deleteFromLargeFiles(table, 1, 2);
    Instant now = Instant.now();

    DueOperation rewrite =
        only(
            MaintenanceOperation.REWRITE_POSITION_DELETES,
            decide(table, recentOrphanRun(now), now));

    assertThat(rewrite.reason())
        .startsWith(
            "part=0: 6 delete files >= 6; rewrite-position-deletes: rewriting the delete files"
                + " removes 5 per ")
        .contains(", compacting the data they touch 6 per ");
    assertThat(rewrite.where()).hasValue("\"part\" = 0");
    assertThat(rewrite.estimatedBenefit()).isEqualTo(5);
    assertThat(rewrite.estimatedCostBytes())
        .isEqualTo(health(table, now).partitions().get(0).positionDeleteBytes());
    RowFingerprint before = RowFingerprint.of(table);
    List<String> dataFiles = liveDataFiles(table);

    PositionDeleteRewriteResult result = rewrite(table, rewrite);

    assertThat(result.rewritten().total()).isEqualTo(6);
    assertThat(result.added().total()).isEqualTo(1);
    assertThat(result.addedBytes()).isPositive();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(before.rowCount()).isEqualTo(16_000 - 6 * 2 - 2 * 2);
    assertThat(liveDataFiles(table)).isEqualTo(dataFiles);
    TableHealthReport after = health(table, now);
    assertThat(after.partitions())
        .extracting(partition -> partition.deleteFiles())
        .as("part=1, below half the threshold, was left out")
        .containsExactly(1L, 2L);
    assertThat(after.partitions().get(0).sharedPositionDeleteFiles()).isEqualTo(1);
    assertThat(TRIGGERS.decide(after, policy(table, Map.of()), recentOrphanRun(now), now).due())
        .isEmpty();
  }

  @Test
  void deleteFilesAtHalfTheThresholdAreRewrittenEarlyWhenThatIsCheaper() {
    Table table = SimpleTables.create(catalog, "cdc", 2, withMinDeleteFiles(LARGE_FILES, 6));
    deleteFromLargeFiles(table, 0, 3);
    Instant now = Instant.now();

    DueOperation rewrite =
        only(
            MaintenanceOperation.REWRITE_POSITION_DELETES,
            decide(table, recentOrphanRun(now), now));

    assertThat(rewrite.reason())
        .startsWith("part=0: 3 delete files (>= 3, half of 6); rewrite-position-deletes: ");
    RowFingerprint before = RowFingerprint.of(table);
    rewrite(table, rewrite);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(health(table, now).table().deleteFiles()).isEqualTo(1);
  }

  @Test
  void deletesOfSmallFilesWaitUntilTheThresholdThenACompactionAppliesThem() {
    Table table =
        SimpleTables.create(catalog, "cdc", 2, Map.of("lakeops.compact.min-delete-files", "6"));
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 6; file++) {
      files.add(SimpleTables.append(table, 0, file * 100L, 100));
    }
    for (int file = 0; file < 3; file++) {
      deleteRows(table, files.get(file));
    }
    Instant now = Instant.now();

    TriggerDecision early = decide(table, recentOrphanRun(now), now);

    assertThat(early.due()).isEmpty();
    assertThat(compactionsHeld(early))
        .extracting(HeldOperation::operation, held -> held.reason().replaceAll("[0-9.]+KB", "#"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                MaintenanceOperation.COMPACT,
                "part=0: 3 delete files (>= 3, half of 6); wait: rewriting the delete files removes"
                    + " 2 per # written, compacting the data they touch 3 per #"));

    for (int file = 3; file < 6; file++) {
      deleteRows(table, files.get(file));
    }
    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, recentOrphanRun(now), now));
    assertThat(compact.reason()).startsWith("part=0: 6 delete files >= 6; compact: ");
    assertThat(compact.rewriteOptions()).containsEntry("delete-file-threshold", "1");
    RowFingerprint before = RowFingerprint.of(table);
    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .where(compact.where().orElseThrow())
                .options(compact.rewriteOptions())
                .build());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(before.rowCount()).isEqualTo(600 - 12);
    assertThat(health(table, now).table().deleteFiles()).isZero();
  }

  @Test
  void aCompactionOfTheSmallFilesAppliesTheirDeletesInsteadOfARewrite() {
    Table table =
        SimpleTables.create(
            catalog,
            "cdc",
            2,
            Map.of(
                "lakeops.compact.min-delete-files", "6", "lakeops.compact.min-small-files", "4"));
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 4; file++) {
      files.add(SimpleTables.append(table, 0, file * 2_000L, 2_000));
    }
    for (DataFile file : files) {
      deleteRows(table, file);
    }
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, recentOrphanRun(now), now));

    assertThat(compact.reason())
        .startsWith(
            "part=0: 4 small files >= 4; part=0: 4 delete files (>= 3, half of 6); compact: ");
    assertThat(compact.partitions()).hasSize(1);
    assertThat(compact.estimatedBenefit()).as("3 files merged away, 4 delete files").isEqualTo(7);
    RowFingerprint before = RowFingerprint.of(table);
    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .where(compact.where().orElseThrow())
                .options(compact.rewriteOptions())
                .build());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(before.rowCount()).isEqualTo(8_000 - 8);
    assertThat(health(table, now).table().deleteFiles()).isZero();
    assertThat(health(table, now).table().dataFiles()).isEqualTo(1);
  }

  @Test
  void whileTheMinimumIntervalHoldsCompactionsDueDeleteFilesAreRewritten() {
    Table table =
        SimpleTables.create(catalog, "cdc", 2, Map.of("lakeops.compact.min-delete-files", "3"));
    for (int file = 0; file < 3; file++) {
      deleteRows(table, SimpleTables.append(table, 0, file * 100L, 100));
    }
    Instant now = Instant.now();
    MaintenanceHistory history =
        recentOrphanRun(now)
            .withFinished(MaintenanceOperation.COMPACT, now.minus(Duration.ofMinutes(3)), false);

    TriggerDecision decision = decide(table, history, now);

    DueOperation rewrite = only(MaintenanceOperation.REWRITE_POSITION_DELETES, decision);
    assertThat(rewrite.reason())
        .startsWith("part=0: 3 delete files >= 3; rewrite-position-deletes, compaction held: ");
    assertThat(compactionsHeld(decision)).isEmpty();
    RowFingerprint before = RowFingerprint.of(table);
    rewrite(table, rewrite);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(health(table, now).table().deleteFiles()).isEqualTo(1);
    assertThat(health(table, now).table().lastDataRewrite())
        .as("a rewrite of delete files is no compaction: compact.min-interval does not count it")
        .isEmpty();
  }

  @Test
  void deletionVectorsAreAppliedByACompactionNotRewritten() {
    Table table = SimpleTables.create(catalog, "cdc", 3, withMinDeleteFiles(LARGE_FILES, 3));
    for (int file = 0; file < 3; file++) {
      TableFiles.deletionVector(table, SimpleTables.append(table, 0, file * 10_000L, 2_000), 3, 4);
    }
    Instant now = Instant.now();

    DueOperation compact =
        only(MaintenanceOperation.COMPACT, decide(table, recentOrphanRun(now), now));

    assertThat(compact.reason()).isEqualTo("part=0: 3 delete files >= 3");
    RowFingerprint before = RowFingerprint.of(table);
    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .where(compact.where().orElseThrow())
                .options(compact.rewriteOptions())
                .build());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(health(table, now).table().deleteFiles()).isZero();
  }

  private static List<HeldOperation> compactionsHeld(TriggerDecision decision) {
    return decision.held().stream()
        .filter(held -> held.operation() == MaintenanceOperation.COMPACT)
        .toList();
  }

  private static Map<String, String> withMinDeleteFiles(Map<String, String> properties, int min) {
    Map<String, String> all = new HashMap<>(properties);
    all.put("lakeops.compact.min-delete-files", String.valueOf(min));
    return all;
  }

  /**
   * {@code count} files of 2,000 rows into {@code part}, two rows of each deleted, a commit each.
   */
  private static void deleteFromLargeFiles(Table table, int part, int count) {
    for (int file = 0; file < count; file++) {
      deleteRows(table, SimpleTables.append(table, part, part * 100_000L + file * 2_000L, 2_000));
    }
  }

  private static void deleteRows(Table table, DataFile file) {
    table.newRowDelta().addDeletes(TableFiles.writePositionDeletes(table, file, 3, 4)).commit();
  }

  private static PositionDeleteRewriteResult rewrite(Table table, DueOperation rewrite) {
    return new PositionDeleteRewriter()
        .rewrite(
            table,
            PositionDeleteRewriter.MIN_INPUT_FILES_DEFAULT,
            false,
            WhereParser.parse(rewrite.where().orElse(null)));
  }

  private static TriggerDecision decide(Table table, MaintenanceHistory history, Instant now) {
    return TRIGGERS.decide(health(table, now), policy(table, Map.of()), history, now);
  }

  private static TableHealthReport health(Table table, Instant now) {
    table.refresh();
    return new TableHealthTracker(Clock.fixed(now, ZoneOffset.UTC))
        .evaluate(table, policy(table, Map.of()).healthCriteria());
  }
}
