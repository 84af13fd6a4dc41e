package dev.lakeops.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.testing.Conditions;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommitConflictTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void concurrentDeleteDropsOnlyTheAffectedGroupAndDeletesItsFiles(int formatVersion) {
    Table table = tableWithPartitions(formatVersion, 3, Map.of());
    AtomicLong concurrentSnapshot = new AtomicLong();
    AtomicBoolean fired = new AtomicBoolean();
    CompactionListener concurrentDelete =
        new CompactionListener() {
          @Override
          public void groupRewritten(RewrittenGroup group) {
            if (fired.compareAndSet(false, true)) {
              Table other = catalog.loadTable(NAME);
              DataFile target = group.group().tasks().get(1).file();
              deleteRows(other, formatVersion, target, 0, 1);
              concurrentSnapshot.set(other.currentSnapshot().snapshotId());
            }
          }
        };

    CompactionResult result = new TableCompactor(concurrentDelete).compact(table, serial(Map.of()));

    table.refresh();
    assertThat(result.committedGroups()).isEqualTo(2);
    assertThat(result.droppedGroups()).isEqualTo(1);
    // the dropped group is the one conflict; found before committing, so no retry
    assertThat(result.commitConflicts()).isEqualTo(1);
    assertThat(result.commitRetries()).isZero();
    assertThat(result.dropReasons())
        .singleElement()
        .asString()
        .contains("new " + (formatVersion >= 3 ? "deletion vector" : "position delete file"))
        .contains("was added by snapshot " + concurrentSnapshot.get());
    assertThat(RowFingerprint.of(table))
        .isEqualTo(RowFingerprint.of(table, concurrentSnapshot.get()));
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(3 * 4 * 50 - 2);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  @Test
  void raceBetweenValidationAndCommitIsRetriedWithTheStillValidGroups() {
    Table real = tableWithPartitions(2, 3, Map.of());
    List<String> deletedFrom = new ArrayList<>();
    Table table =
        TableOperationsWrapper.wrap(
            real,
            commit -> {
              if (commit == 1) {
                Table other = catalog.loadTable(NAME);
                DataFile target = firstDataFile(other, 0);
                deletedFrom.add(target.location());
                TableFiles.deletePositions(other, target, 3);
              }
            },
            commit -> {});
    RowFingerprint expected = RowFingerprint.of(real);

    CompactionResult result = new TableCompactor().compact(table, serial(Map.of()));

    table.refresh();
    assertThat(result.committedGroups()).isEqualTo(2);
    assertThat(result.retriedGroups()).isEqualTo(2);
    assertThat(result.droppedGroups()).isEqualTo(1);
    // every group met the conflict: two retried, one dropped, after one failed attempt
    assertThat(result.commitConflicts()).isEqualTo(3);
    assertThat(result.commitRetries()).isEqualTo(1);
    assertThat(result.dropReasons())
        .singleElement()
        .asString()
        .contains("(part=0): new position delete file");
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(expected.rowCount() - 1);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  @Test
  void commitStateUnknownNeverDeletesAFile() {
    Table real = tableWithPartitions(2, 2, Map.of());
    RowFingerprint before = RowFingerprint.of(real);
    Table table =
        TableOperationsWrapper.wrap(
            real,
            commit -> {},
            commit -> {
              throw new CommitStateUnknownException(
                  new RuntimeException("connection reset after the commit"));
            });

    assertThatThrownBy(() -> new TableCompactor().compact(table, serial(Map.of())))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("connection reset after the commit");

    Table reloaded = catalog.loadTable(NAME);
    Snapshot current = reloaded.currentSnapshot();
    assertThat(current.summary()).containsEntry(RewriteCommitter.OPERATION_PROPERTY, "compact");
    assertThat(RowFingerprint.of(reloaded)).isEqualTo(before);
    assertThat(TableListing.filesOnDisk(reloaded)).containsAll(liveFiles(reloaded));
  }

  @Test
  void exhaustedRetriesDeleteTheNewFilesAndLeaveTheTableUnchanged() {
    Table real = tableWithPartitions(2, 2, Map.of(TableProperties.COMMIT_NUM_RETRIES, "0"));
    long before = real.currentSnapshot().snapshotId();
    Table table =
        TableOperationsWrapper.wrap(
            real,
            commit -> {
              throw new CommitFailedException("simulated conflict %d", commit);
            },
            commit -> {});

    assertThatThrownBy(() -> new TableCompactor().compact(table, serial(Map.of())))
        .isInstanceOf(RewriteCommitException.class)
        .hasMessageContaining("still conflicted after 5 attempts; their new files were deleted")
        .hasMessageContaining("simulated conflict 5");

    real.refresh();
    assertThat(real.currentSnapshot().snapshotId()).isEqualTo(before);
    assertThat(TableListing.unreferencedFiles(real)).isEmpty();
  }

  @Test
  void partialProgressCommitsBatchesWhileOtherGroupsStillRewrite() {
    Table table = tableWithPartitions(2, 6, Map.of());
    RowFingerprint before = RowFingerprint.of(table);
    int snapshotsBefore = snapshotCount(table);
    List<Integer> compactionSnapshotsSeen = new ArrayList<>();
    CompactionListener waitForFirstCommit =
        new CompactionListener() {
          private int rewritten;

          @Override
          public void groupRewritten(RewrittenGroup group) {
            rewritten++;
            if (rewritten == 4) {
              compactionSnapshotsSeen.add(awaitCompactionSnapshot());
            }
          }
        };

    CompactionResult result =
        new TableCompactor(waitForFirstCommit)
            .compact(
                table,
                serial(
                    Map.of(
                        "partial-progress.enabled", "true", "partial-progress.max-commits", "3")));

    table.refresh();
    assertThat(compactionSnapshotsSeen).singleElement().isNotEqualTo(0);
    assertThat(result.commits()).isEqualTo(3);
    assertThat(result.committedGroups()).isEqualTo(6);
    assertThat(snapshotCount(table)).isEqualTo(snapshotsBefore + 3);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(liveFiles(table)).hasSize(6);
  }

  @Test
  void filesAddedAfterThePlanningSnapshotAreLeftAlone() {
    Table table = tableWithPartitions(2, 2, Map.of());
    List<DataFile> appended = new ArrayList<>();
    CompactionListener appendAfterPlanning =
        new CompactionListener() {
          @Override
          public void planned(RewritePlan plan) {
            appended.add(SimpleTables.append(catalog.loadTable(NAME), 0, 1_000_000, 10));
          }
        };

    CompactionResult result =
        new TableCompactor(appendAfterPlanning).compact(table, serial(Map.of()));

    table.refresh();
    assertThat(result.inputFiles()).isEqualTo(8);
    assertThat(result.droppedGroups()).isZero();
    assertThat(liveFiles(table)).hasSize(3).contains(appended.get(0).location());
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(8 * 50 + 10);
  }

  @Test
  void concurrentEqualityDeletesStillApplyToTheRewrittenRows() {
    Table table = tableWithPartitions(2, 2, Map.of());
    AtomicBoolean fired = new AtomicBoolean();
    CompactionListener concurrentEqualityDelete =
        new CompactionListener() {
          @Override
          public void groupRewritten(RewrittenGroup group) {
            if (fired.compareAndSet(false, true)) {
              TableFiles.deleteEqual(
                  catalog.loadTable(NAME), SimpleTables.partition(table, 0), "data", "row-5");
            }
          }
        };

    CompactionResult result =
        new TableCompactor(concurrentEqualityDelete).compact(table, serial(Map.of()));

    table.refresh();
    assertThat(result.committedGroups()).isEqualTo(2);
    assertThat(result.droppedGroups()).isZero();
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(8 * 50 - 1);
  }

  private int awaitCompactionSnapshot() {
    Conditions.await(
        "the first compaction commit",
        Duration.ofSeconds(20),
        () -> {
          for (Snapshot snapshot : catalog.loadTable(NAME).snapshots()) {
            if ("compact".equals(snapshot.summary().get(RewriteCommitter.OPERATION_PROPERTY))) {
              return true;
            }
          }
          return false;
        });
    return 1;
  }

  static void deleteRows(Table table, int formatVersion, DataFile file, long... positions) {
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, file, positions);
    } else {
      TableFiles.deletePositions(table, file, positions);
    }
  }

  private Table tableWithPartitions(
      int formatVersion, int partitions, Map<String, String> properties) {
    Table table = SimpleTables.create(catalog, NAME.name(), formatVersion, properties);
    long id = 0;
    for (int part = 0; part < partitions; part++) {
      for (int file = 0; file < 4; file++) {
        SimpleTables.append(table, part, id, 50);
        id += 50;
      }
    }
    return table;
  }

  private static CompactionRequest serial(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("max-concurrent-file-group-rewrites", "1");
    all.put("min-input-files", "2");
    return CompactionRequest.builder().options(all).build();
  }

  private static DataFile firstDataFile(Table table, int part) {
    for (DataFile file : dataFiles(table)) {
      if (file.partition().get(0, Integer.class) == part) {
        return file;
      }
    }
    throw new AssertionError("no data file in partition " + part);
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file().copy()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  private static List<String> liveFiles(Table table) {
    return dataFiles(table).stream()
        .map(file -> file.location().replaceFirst("^file:", ""))
        .toList();
  }

  private static int snapshotCount(Table table) {
    int count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}
