package dev.lakeops.maintain.expire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.maintain.TableFiles;
import dev.lakeops.testing.Conditions;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotExpirerTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  private Table fragmentedTable(int formatVersion) {
    return new DemoTableGenerator(catalog)
        .create(TableIdentifier.of("db", "events"), formatVersion, 2, 12, 50, 3);
  }

  /** A metadata-only delete of the first day's files: they stay reachable from older snapshots. */
  private static void dropFirstDay(Table table) {
    table.newDelete().deleteFromRowFilter(Expressions.equal("day", "2026-11-01")).commit();
    table.refresh();
  }

  private static List<Long> snapshotIds(Table table) {
    table.refresh();
    List<Long> ids = new ArrayList<>();
    table.snapshots().forEach(snapshot -> ids.add(snapshot.snapshotId()));
    return ids;
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void expiresHistoryAndDeletesOnlyUnreachableFiles(int formatVersion) {
    Table table = fragmentedTable(formatVersion);
    dropFirstDay(table);
    RowFingerprint rows = RowFingerprint.of(table);
    long current = table.currentSnapshot().snapshotId();
    Set<Path> before = TableFiles.onDisk(table);

    SnapshotExpiryResult result =
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1).build());

    assertThat(snapshotIds(table)).containsExactly(current);
    assertThat(result.expiredSnapshotIds()).hasSize(4);
    assertThat(result.retainedSnapshots()).isEqualTo(1);
    assertThat(result.deletedContentFiles()).isEqualTo(6);
    assertThat(result.deletedManifestLists()).isEqualTo(4);
    assertThat(result.deletedManifests()).isPositive();
    assertThat(result.failedDeletes()).isZero();
    Set<Path> after = TableFiles.onDisk(table);
    // the expiry commit itself adds one metadata.json
    assertThat(before.size() - after.size() + 1).isEqualTo(result.deletedFiles());
    assertThat(after.stream().filter(path -> path.toString().endsWith(".parquet"))).hasSize(6);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void branchesAndTagsKeepTheSnapshotsTheyNeed() {
    Table table = fragmentedTable(2);
    List<Long> history = snapshotIds(table);
    long tagged = history.get(0);
    long branchHead = history.get(2);
    table
        .manageSnapshots()
        .createTag("first-load", tagged)
        .createBranch("audit", branchHead)
        .setMinSnapshotsToKeep("audit", 2)
        .commit();
    RowFingerprint taggedRows = RowFingerprint.of(table, tagged);
    dropFirstDay(table);

    SnapshotExpiryResult result =
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1).build());

    List<Long> kept = snapshotIds(table);
    assertThat(kept)
        .containsExactlyInAnyOrder(
            tagged, history.get(1), branchHead, table.currentSnapshot().snapshotId());
    assertThat(result.expiredSnapshotIds()).containsExactly(history.get(3));
    assertThat(RowFingerprint.of(table, tagged)).isEqualTo(taggedRows);
    assertThat(TableFiles.readEverySnapshot(table)).hasSize(4);
    // of the last append's three files only its first-day one was reachable from it alone
    assertThat(result.deletedContentFiles()).isEqualTo(1);
  }

  @Test
  void refsOlderThanTheirMaxAgeAreDroppedWithTheirSnapshots() {
    Table table = fragmentedTable(2);
    long tagged = snapshotIds(table).get(0);
    table.manageSnapshots().createTag("scratch", tagged).setMaxRefAgeMs("scratch", 1).commit();
    long taggedAt = table.snapshot(tagged).timestampMillis();
    Conditions.await(
        "the tag to pass its 1 ms maximum age",
        Duration.ofSeconds(5),
        () -> System.currentTimeMillis() > taggedAt + 1);

    SnapshotExpiryResult result =
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1).build());

    table.refresh();
    assertThat(table.refs()).containsOnlyKeys("main");
    assertThat(result.removedRefs()).containsExactly("scratch");
    assertThat(result.expiredSnapshotIds()).contains(tagged);
  }

  @Test
  void tablePropertiesDecideWhenNoOptionIsGiven() {
    Table table = fragmentedTable(2);
    table
        .updateProperties()
        .set(TableProperties.MAX_SNAPSHOT_AGE_MS, "0")
        .set(TableProperties.MIN_SNAPSHOTS_TO_KEEP, "2")
        .commit();

    SnapshotExpiryResult result =
        new SnapshotExpirer().expire(table, SnapshotExpiryOptions.defaults());

    assertThat(snapshotIds(table)).hasSize(2);
    assertThat(result.expiredSnapshotIds()).hasSize(2);
  }

  @Test
  void expiredDeleteFilesAreCountedByKind() {
    Table table = fragmentedTable(2);
    DataFile first = table.currentSnapshot().addedDataFiles(table.io()).iterator().next();
    dev.lakeops.testing.TableFiles.deletePositions(table, first, 0, 1);
    dev.lakeops.testing.TableFiles.deleteEqual(table, first.partition(), "event_id", -1L);
    table.refresh();
    RowFingerprint rows = RowFingerprint.of(table);
    CompactionResult compaction =
        new TableCompactor()
            .compact(
                table, CompactionRequest.builder().options(Map.of("rewrite-all", "true")).build());
    assertThat(compaction.removedDeleteFiles()).isEqualTo(2);
    table.refresh();

    SnapshotExpiryResult result =
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1).build());

    assertThat(result.deletedDataFiles()).isEqualTo(compaction.inputFiles());
    assertThat(result.deletedPositionDeleteFiles()).isEqualTo(1);
    assertThat(result.deletedEqualityDeleteFiles()).isEqualTo(1);
    assertThat(result.deletedContentFiles()).isEqualTo(compaction.inputFiles() + 2);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void explicitSnapshotIdsAreExpired() {
    Table table = fragmentedTable(2);
    long first = snapshotIds(table).get(0);

    SnapshotExpiryResult result =
        new SnapshotExpirer()
            .expire(table, SnapshotExpiryOptions.builder().snapshotIds(List.of(first)).build());

    assertThat(result.expiredSnapshotIds()).containsExactly(first);
    assertThat(snapshotIds(table)).hasSize(3).doesNotContain(first);
    assertThat(result.deletedContentFiles()).isZero();
    assertThat(TableFiles.readEverySnapshot(table)).hasSize(3);
  }

  @Test
  void dryRunReportsTheSameAsTheRealRunAndChangesNothing() {
    Table table = fragmentedTable(2);
    dropFirstDay(table);
    Set<Path> files = TableFiles.onDisk(table);
    List<Long> snapshots = snapshotIds(table);
    SnapshotExpiryOptions.Builder options =
        SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1);

    SnapshotExpiryResult dryRun = new SnapshotExpirer().expire(table, options.dryRun(true).build());

    assertThat(TableFiles.onDisk(table)).isEqualTo(files);
    assertThat(snapshotIds(table)).isEqualTo(snapshots);
    assertThat(dryRun.dryRun()).isTrue();
    SnapshotExpiryResult real = new SnapshotExpirer().expire(table, options.dryRun(false).build());
    assertThat(dryRun.expiredSnapshotIds()).isEqualTo(real.expiredSnapshotIds());
    assertThat(dryRun.deletedContentFiles()).isEqualTo(real.deletedContentFiles());
    assertThat(dryRun.deletedManifests()).isEqualTo(real.deletedManifests());
    assertThat(dryRun.deletedManifestLists()).isEqualTo(real.deletedManifestLists());
  }

  @Test
  void unknownSnapshotIdIsRejectedAndNothingChanges() {
    Table table = fragmentedTable(2);
    List<Long> snapshots = snapshotIds(table);

    assertThatThrownBy(
            () ->
                new SnapshotExpirer()
                    .expire(
                        table, SnapshotExpiryOptions.builder().snapshotIds(List.of(42L)).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Snapshot 42 does not exist in table hadoop.db.events")
        .hasMessageContaining("pass an id from the table's snapshots");
    assertThat(snapshotIds(table)).isEqualTo(snapshots);
  }

  @Test
  void snapshotThatHeadsARefIsRejected() {
    Table table = fragmentedTable(2);
    long first = snapshotIds(table).get(0);
    table.manageSnapshots().createTag("keep", first).commit();

    assertThatThrownBy(
            () ->
                new SnapshotExpirer()
                    .expire(
                        table, SnapshotExpiryOptions.builder().snapshotIds(List.of(first)).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Snapshot "
                + first
                + " is the head of tag 'keep' of table hadoop.db.events: remove or move that ref"
                + " before expiring the snapshot");
  }

  @Test
  void retainLastBelowOneIsRejected() {
    assertThatThrownBy(() -> SnapshotExpiryOptions.builder().retainLast(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot retain 0 snapshots: every branch keeps at least its head; use retain_last 1 or more");
  }

  @Test
  void gcDisabledTableIsRefused() {
    Table table = fragmentedTable(2);
    table.updateProperties().set(TableProperties.GC_ENABLED, "false").commit();

    assertThatThrownBy(() -> new SnapshotExpirer().expire(table, SnapshotExpiryOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("table property gc.enabled is false");
  }

  @Test
  void concurrentWriterLosesNoFile() throws Exception {
    Table table = fragmentedTable(2);
    Table writerView = catalog.loadTable(TableIdentifier.of("db", "events"));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger commits = new AtomicInteger();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (long seed = 100; !stop.get() && seed < 140; seed++) {
                  DemoTableGenerator.append(writerView, 2, 2, 20, 2, seed);
                  commits.incrementAndGet();
                }
              } catch (Throwable t) {
                writerFailure.set(t);
              }
            });
    writer.start();
    try {
      for (int round = 0; round < 5; round++) {
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(2).build());
      }
    } finally {
      stop.set(true);
      writer.join();
    }

    assertThat(writerFailure.get()).isNull();
    Map<Long, RowFingerprint> everySnapshot = TableFiles.readEverySnapshot(table);
    assertThat(everySnapshot).isNotEmpty();
    RowFingerprint current = RowFingerprint.of(table);
    assertThat(current.rowCount()).isEqualTo(12 * 50 + commits.get() * 40L);
    for (Snapshot snapshot : table.snapshots()) {
      assertThat(Files.exists(Path.of(snapshot.manifestListLocation().replaceFirst("^file:", ""))))
          .isTrue();
    }
  }
}
