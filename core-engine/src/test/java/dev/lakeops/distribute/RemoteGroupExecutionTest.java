package dev.lakeops.distribute;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.testing.RowLineages;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.GroupVerificationException;
import dev.lakeops.verify.RowFingerprint;
import dev.lakeops.verify.WriterFault;
import dev.lakeops.verify.WriterFaults;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * File groups rewritten as serialized tasks, the way Spark executors run them: every task and
 * result makes a Java-serialization round trip, and each attempt has its own budget, spill
 * directory and tag. Planning and committing stay with {@link TableCompactor}.
 */
class RemoteGroupExecutionTest {
  @TempDir Path warehouse;
  @TempDir Path spill;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @ParameterizedTest(name = "format version {0}")
  @ValueSource(ints = {2, 3})
  void binpackWithDeletesKeepsEveryRowAndRemovesTheDeleteFiles(int formatVersion) {
    Table table =
        SimpleTables.create(catalog, "binpack_v" + formatVersion, formatVersion, Map.of());
    List<DataFile> files = appendFiles(table);
    if (formatVersion == 2) {
      TableFiles.deletePositions(table, files.get(0), 0, 3, 7);
      TableFiles.deleteEqual(table, SimpleTables.partition(table, 1), "id", 1005L, 1010L);
    } else {
      TableFiles.deletionVector(table, files.get(0), 0, 3, 7);
    }
    RowFingerprint before = RowFingerprint.of(table);
    Map<Long, List<Long>> lineage = RowLineages.of(table, "id");
    InProcessSubmitter submitter = new InProcessSubmitter(spill, 0);

    CompactionResult result = compactor(submitter).compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    if (formatVersion == 3) {
      // first row ids and sequence numbers travel with the serialized tasks
      assertThat(result.decodedBytes()).isZero();
      assertThat(RowLineages.of(table, "id")).isEqualTo(lineage);
    }
    assertThat(result.fileGroups()).isEqualTo(3);
    assertThat(submitter.submitted.get()).isEqualTo(3);
    assertThat(result.removedDeleteFiles()).isEqualTo(formatVersion == 2 ? 2 : 1);
    // the tasks' row counts came back with their files and passed the driver's verification
    assertThat(result.verificationMode()).isEqualTo("counts");
    assertThat(result.verifiedRows()).isEqualTo(before.rowCount());
    assertThat(liveDataFiles(table)).hasSize(3).allMatch(path -> path.contains("-attempt-0-"));
  }

  @Test
  void sortAndZorderRunAsTasks() {
    Table sorted = SimpleTables.create(catalog, "sorted", 2, Map.of());
    List<DataFile> files = appendFiles(sorted);
    TableFiles.deletePositions(sorted, files.get(4), 1, 2);
    RowFingerprint before = RowFingerprint.of(sorted);
    CompactionRequest sort =
        CompactionRequest.builder().strategy(Strategy.SORT).sortOrder("data DESC, id").build();

    CompactionResult sortResult = compactor(new InProcessSubmitter(spill, 0)).compact(sorted, sort);

    sorted.refresh();
    assertThat(RowFingerprint.of(sorted)).isEqualTo(before);
    assertThat(sortResult.verificationMode()).isEqualTo("checksum");
    assertThat(sortResult.verifiedRows()).isEqualTo(before.rowCount());
    assertThat(liveDataFiles(sorted)).hasSize(3);

    Table zordered = SimpleTables.create(catalog, "zordered", 2, Map.of());
    appendFiles(zordered);
    RowFingerprint zorderedBefore = RowFingerprint.of(zordered);
    CompactionRequest zorder =
        CompactionRequest.builder()
            .strategy(Strategy.ZORDER)
            .zorderColumns(List.of("id", "data"))
            .build();

    compactor(new InProcessSubmitter(spill, 0)).compact(zordered, zorder);

    zordered.refresh();
    assertThat(RowFingerprint.of(zordered)).isEqualTo(zorderedBefore);
    assertThat(liveDataFiles(zordered)).hasSize(3);
  }

  @Test
  void aTaskThatDroppedARowIsRefusedOnTheDriver() {
    Table table = SimpleTables.create(catalog, "dropped", 2, Map.of());
    appendFiles(table);
    RowFingerprint before = RowFingerprint.of(table);
    long snapshot = table.currentSnapshot().snapshotId();
    WriterFaults.install(WriterFault.DROPPED_ROW);
    try {
      assertThatThrownBy(
              () ->
                  compactor(new InProcessSubmitter(spill, 0))
                      .compact(table, CompactionRequest.binpack()))
          .isInstanceOf(GroupVerificationException.class)
          .hasMessageContaining("wrote 149 rows, expected 150 (150 read, 0 deleted)");
    } finally {
      WriterFaults.reset();
    }
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void filesOfALostAttemptAreNeverCommitted() {
    Table table = SimpleTables.create(catalog, "retried", 2, Map.of());
    appendFiles(table);
    RowFingerprint before = RowFingerprint.of(table);
    // every group's first attempt writes its files and then "dies": its result never arrives
    InProcessSubmitter submitter = new InProcessSubmitter(spill, 1);

    compactor(submitter).compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(submitter.lostFiles)
        .hasSize(3)
        .allSatisfy(path -> assertThat(Path.of(path)).exists());
    assertThat(liveDataFiles(table))
        .hasSize(3)
        .doesNotContainAnyElementsOf(submitter.lostFiles)
        .allMatch(path -> path.contains("-attempt-1-"));
  }

  @Test
  void aGroupWhoseEveryAttemptFailedFailsTheRunAndLeavesTheTableUnchanged() {
    Table table = SimpleTables.create(catalog, "failing", 2, Map.of());
    appendFiles(table);
    long snapshot = table.currentSnapshot().snapshotId();
    GroupTaskSubmitter failing =
        task -> {
          throw new IllegalStateException(task.describe() + " failed on every attempt");
        };

    assertThatThrownBy(() -> compactor(failing).compact(table, CompactionRequest.binpack()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageMatching(
            "file group \\d \\(part=\\d, 6 files\\) of .*failing failed on every attempt");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  @Test
  void attemptTagsAreCheckedBeforeAnythingIsWritten() {
    Table table = SimpleTables.create(catalog, "tags", 2, Map.of());
    appendFiles(table);

    assertThatThrownBy(
            () ->
                compactor(
                        task ->
                            GroupTaskRunner.run(
                                task,
                                new TaskAttempt("attempt 1/2", ByteSize.ofMegabytes(64), spill)))
                    .compact(table, CompactionRequest.binpack()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid attempt tag 'attempt 1/2': use letters, digits, '-' and '_' only");
  }

  private static TableCompactor compactor(GroupTaskSubmitter submitter) {
    return new TableCompactor(
        CompactionListener.NONE, LockOptions.defaults(), new RemoteGroupExecution(submitter));
  }

  /** Three partitions of six small files each. */
  private static List<DataFile> appendFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    for (int part = 0; part < 3; part++) {
      for (int file = 0; file < 6; file++) {
        files.add(SimpleTables.append(table, part, part * 1000L + file * 25L, 25));
      }
    }
    return files;
  }

  private static Set<String> liveDataFiles(Table table) {
    Set<String> paths = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> paths.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return paths;
  }

  /**
   * A hand-written stand-in for Spark: serializes each task, rewrites it on a copy with its own
   * attempt, serializes the result back; the first {@code lostAttempts} attempts of each group
   * write their files and then lose their result, as a killed executor would.
   */
  private static final class InProcessSubmitter implements GroupTaskSubmitter {
    private final Path spill;
    private final int lostAttempts;
    private final AtomicInteger submitted = new AtomicInteger();
    private final List<String> lostFiles =
        java.util.Collections.synchronizedList(new ArrayList<>());

    InProcessSubmitter(Path spill, int lostAttempts) {
      this.spill = spill;
      this.lostAttempts = lostAttempts;
    }

    @Override
    public GroupTaskResult submit(GroupTask task) {
      submitted.incrementAndGet();
      for (int attempt = 0; ; attempt++) {
        GroupTask shipped = roundTrip(task);
        Path directory = spill.resolve("group-" + task.group().index() + "-attempt-" + attempt);
        try {
          Files.createDirectories(directory);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        GroupTaskResult result =
            roundTrip(
                GroupTaskRunner.run(
                    shipped,
                    new TaskAttempt("attempt-" + attempt, ByteSize.ofMegabytes(64), directory)));
        if (attempt >= lostAttempts) {
          return result;
        }
        result.addedFiles().forEach(file -> lostFiles.add(file.location()));
      }
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) {
      try {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
          out.writeObject(value);
        }
        try (ObjectInputStream in =
            new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
          return (T) in.readObject();
        }
      } catch (IOException | ClassNotFoundException e) {
        throw new IllegalStateException("Cannot serialize " + value.getClass().getSimpleName(), e);
      }
    }
  }
}
