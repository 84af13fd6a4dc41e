package dev.lakeops.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TableHealthTrackerTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  /**
   * After every step of appends, row deltas with deletes, a compaction and an expiry, the tracker
   * that saw every step reads only what changed and still reports exactly what a full scan reports.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void incrementalEvaluationEqualsFullScanThroughEveryKindOfCommit(int formatVersion) {
    Table table = SimpleTables.create(catalog, "mixed" + formatVersion, formatVersion, Map.of());
    TableHealthTracker tracker = new TableHealthTracker();
    assertSameAsFullScan(tracker.evaluate(table), table);

    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < 18; file++) {
      files.add(SimpleTables.append(table, file % 3, file * 100L, 100));
    }
    TableHealthReport afterAppends = tracker.evaluate(table);
    assertThat(afterAppends.kind()).isEqualTo(EvaluationKind.INCREMENTAL);
    assertThat(afterAppends.table().dataFiles()).isEqualTo(18);
    assertThat(afterAppends.table().smallDataFiles()).isEqualTo(18);
    assertThat(afterAppends.partitions())
        .extracting(PartitionHealth::path)
        .containsExactly("part=0", "part=1", "part=2");
    assertSameAsFullScan(afterAppends, table);

    for (int file = 0; file < 4; file++) {
      deleteRows(table, files.get(file), formatVersion, 1, 2);
    }
    TableHealthReport afterDeletes = tracker.evaluate(table);
    assertThat(afterDeletes.kind()).isEqualTo(EvaluationKind.INCREMENTAL);
    assertThat(afterDeletes.table().positionDeleteFiles()).isEqualTo(4);
    assertSameAsFullScan(afterDeletes, table);

    new TableCompactor().compact(table, CompactionRequest.binpack());
    TableHealthReport afterCompaction = tracker.evaluate(table);
    assertThat(afterCompaction.kind()).isEqualTo(EvaluationKind.INCREMENTAL);
    assertThat(afterCompaction.table().dataFiles()).isEqualTo(3);
    assertThat(afterCompaction.table().positionDeleteFiles()).isZero();
    assertThat(afterCompaction.table().lastRewrite()).isPresent();
    assertSameAsFullScan(afterCompaction, table);

    SimpleTables.append(table, 4, 10_000L, 10);
    assertSameAsFullScan(tracker.evaluate(table), table);
    SimpleTables.append(table, 4, 20_000L, 10);
    new SnapshotExpirer()
        .expire(
            table, SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(1).build());
    TableHealthReport afterExpiry = tracker.evaluate(table);
    assertThat(afterExpiry.kind())
        .as("the snapshot seen last was expired with its parents: a full scan")
        .isEqualTo(EvaluationKind.FULL);
    assertThat(afterExpiry.table().snapshots()).isEqualTo(1);
    assertSameAsFullScan(afterExpiry, table);

    TableHealthReport again = tracker.evaluate(table);
    assertThat(again.kind()).isEqualTo(EvaluationKind.UNCHANGED);
    assertThat(again.table()).isEqualTo(afterExpiry.table());
    assertThat(again.partitions()).isEqualTo(afterExpiry.partitions());
  }

  /**
   * A new partition spec and another small-file threshold make a full scan; after them it is
   * incremental again.
   */
  @Test
  void specEvolutionAndAnotherThresholdFallBackToAFullScan() {
    Table table = SimpleTables.create(catalog, "evolving", 2, Map.of());
    SimpleTables.append(table, 0, 0, 10);
    SimpleTables.append(table, 0, 10, 10);
    TableHealthTracker tracker = new TableHealthTracker();
    tracker.evaluate(table);
    table.updateSpec().addField("id_bucket", Expressions.bucket("id", 2)).commit();
    SimpleTables.append(table, 0, 100, 10);

    TableHealthReport afterSpecChange = tracker.evaluate(table);
    assertThat(afterSpecChange.kind()).isEqualTo(EvaluationKind.FULL);
    assertThat(afterSpecChange.partitions())
        .extracting(PartitionHealth::specId, PartitionHealth::path, PartitionHealth::dataFiles)
        .containsExactly(
            tuple(0, "part=0", 2L), tuple(1, "part=0/id_bucket=" + bucketOf(table, 100), 1L));
    SimpleTables.append(table, 1, 200, 10);
    TableHealthReport next = tracker.evaluate(table);
    assertThat(next.kind()).isEqualTo(EvaluationKind.INCREMENTAL);
    assertSameAsFullScan(next, table);

    HealthCriteria everythingLarge =
        new HealthCriteria(
            new SmallFileRule(0.75),
            Optional.of(ByteSize.ofBytes(100)),
            12,
            10,
            50,
            ByteSize.ofMegabytes(8),
            1,
            Duration.ofDays(5));
    TableHealthReport otherThreshold = tracker.evaluate(table, everythingLarge);
    assertThat(otherThreshold.kind()).isEqualTo(EvaluationKind.FULL);
    assertThat(otherThreshold.table().smallDataFiles()).isZero();
    assertThat(otherThreshold.table().targetFileSizeBytes()).isEqualTo(100);
  }

  private static int bucketOf(Table table, long id) {
    Transform<Long, Integer> bucket = Transforms.bucket(2);
    return bucket.bind(Types.LongType.get()).apply(id);
  }

  /** With the current snapshot unchanged no manifest is read: the tracker works with them gone. */
  @Test
  void unchangedTableReadsNoManifest() throws IOException {
    Table table = SimpleTables.create(catalog, "idle", 2, Map.of());
    for (int file = 0; file < 3; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
    TableHealthTracker tracker = new TableHealthTracker();
    TableHealthReport first = tracker.evaluate(table);
    deleteManifests(table, Set.of());

    TableHealthReport second = tracker.evaluate(table);

    assertThat(second.kind()).isEqualTo(EvaluationKind.UNCHANGED);
    assertThat(second.table()).isEqualTo(first.table());
    assertThat(second.score()).isEqualTo(first.score());
  }

  /** The counter: a full read opens every manifest, no change none, a commit only its own. */
  @Test
  void manifestReadsCountOnlyWhatChanged() {
    Table table = SimpleTables.create(catalog, "counted", 2, Map.of());
    for (int file = 0; file < 3; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
    ManifestReads reads = new ManifestReads();
    TableHealthTracker tracker = new TableHealthTracker(java.time.Clock.systemUTC(), reads);

    tracker.evaluate(table);
    long afterFirst = reads.total();
    tracker.evaluate(table);
    tracker.evaluate(table);
    long afterUnchanged = reads.total();
    SimpleTables.append(table, 0, 100L, 10);
    tracker.evaluate(table);

    assertThat(afterFirst).isEqualTo(table.currentSnapshot().allManifests(table.io()).size() - 1);
    assertThat(afterUnchanged).isEqualTo(afterFirst);
    assertThat(reads.total()).isEqualTo(afterFirst + 1);
  }

  /** After a new commit only that commit's manifests are read: the older ones may be gone. */
  @Test
  void newCommitReadsOnlyItsOwnManifests() throws IOException {
    Table table = SimpleTables.create(catalog, "streaming", 2, Map.of());
    for (int file = 0; file < 3; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
    TableHealthTracker tracker = new TableHealthTracker();
    tracker.evaluate(table);
    Set<String> older = new HashSet<>();
    table
        .currentSnapshot()
        .allManifests(table.io())
        .forEach(manifest -> older.add(manifest.path()));
    SimpleTables.append(table, 1, 1000L, 10);
    deleteManifests(table, older.isEmpty() ? Set.of() : newManifests(table, older));

    TableHealthReport report = tracker.evaluate(table);

    assertThat(report.kind()).isEqualTo(EvaluationKind.INCREMENTAL);
    assertThat(report.table().dataFiles()).isEqualTo(4);
    assertThat(report.partitions())
        .extracting(PartitionHealth::path)
        .containsExactly("part=0", "part=1");
  }

  /** A partition with many small files scores low on small files; a compacted one scores 100. */
  @Test
  void scoreFallsWithMergeableSmallFilesAndRecoversAfterCompaction() {
    Table table = SimpleTables.create(catalog, "fragmented", 2, Map.of());
    for (int file = 0; file < 20; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }
    SimpleTables.append(table, 1, 5000L, 10);
    TableHealthReport fragmented = new TableHealthTracker().evaluate(table);
    assertThat(fragmented.score().worst().name()).isEqualTo("small-files");
    assertThat(fragmented.score().score()).isEqualTo((int) Math.floor(100 * (1 - 19 / 21.0)));
    assertThat(fragmented.score().healthy()).isFalse();

    new TableCompactor().compact(table, CompactionRequest.binpack());
    TableHealthReport compacted = new TableHealthTracker().evaluate(table);
    assertThat(compacted.score().score()).isEqualTo(100);
    assertThat(compacted.score().parts())
        .extracting(HealthPart::name)
        .containsExactly("small-files", "delete-files", "manifests", "snapshots");
  }

  private static Set<String> newManifests(Table table, Set<String> older) {
    Set<String> keep = new HashSet<>();
    for (ManifestFile manifest : table.currentSnapshot().allManifests(table.io())) {
      if (!older.contains(manifest.path())) {
        keep.add(manifest.path());
      }
    }
    return keep;
  }

  /** Deletes every manifest of the current snapshot except {@code keep}. */
  private static void deleteManifests(Table table, Set<String> keep) throws IOException {
    for (ManifestFile manifest : table.currentSnapshot().allManifests(table.io())) {
      if (!keep.contains(manifest.path())) {
        Files.delete(Path.of(URI.create(manifest.path()).getPath()));
      }
    }
  }

  private static void deleteRows(Table table, DataFile file, int formatVersion, long... positions) {
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, file, positions);
    } else {
      DeleteFile deletes = TableFiles.writePositionDeletes(table, file, positions);
      table.newRowDelta().addDeletes(deletes).commit();
    }
  }

  private static void assertSameAsFullScan(TableHealthReport incremental, Table table) {
    TableHealthReport full = new TableHealthTracker().evaluate(table);
    assertThat(full.kind()).isEqualTo(EvaluationKind.FULL);
    assertThat(incremental.table()).isEqualTo(full.table());
    assertThat(incremental.partitions()).isEqualTo(full.partitions());
    assertThat(incremental.snapshotId()).isEqualTo(full.snapshotId());
    assertThat(incremental.convergence()).isEqualTo(full.convergence());
    assertThat(incremental.largestSmallFileBatch()).isEqualTo(full.largestSmallFileBatch());
    assertThat(incremental.score()).isEqualTo(full.score());
  }
}
