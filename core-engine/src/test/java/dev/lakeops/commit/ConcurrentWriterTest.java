package dev.lakeops.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
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
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A writer thread appends or deletes rows once per turn while binpack or sort runs: one turn before
 * the compaction starts, one after each file group it rewrites, two after it ends. The writer
 * deletes by position in files it appended itself (validated that the file still exists, as a CDC
 * writer does) and, when compaction has already rewritten that file, by equality on {@code id}
 * instead; so it never fails because of compaction. It keeps the set of rows it expects; at the end
 * a reference table holding exactly those rows must have the same {@link RowFingerprint} as the
 * compacted one.
 */
class ConcurrentWriterTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;

  @ParameterizedTest
  @EnumSource(
      value = Strategy.class,
      names = {"BINPACK", "SORT"})
  void writerNeverFailsAndTheTableHoldsExactlyItsRows(Strategy strategy) throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    Map<Long, Integer> expected = new HashMap<>();
    long id = 0;
    for (int part = 0; part < 4; part++) {
      for (int file = 0; file < 6; file++) {
        SimpleTables.append(table, part, id, 2000);
        for (long row = id; row < id + 2000; row++) {
          expected.put(row, part);
        }
        id += 2000;
      }
    }
    AtomicBoolean stop = new AtomicBoolean();
    Semaphore turns = new Semaphore(1);
    Writer writer = new Writer(catalog.loadTable(NAME), expected, 10_000_000L);
    CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> writer.run(stop, turns));
    CompactionListener writerTurnPerGroup =
        new CompactionListener() {
          @Override
          public void groupRewritten(RewrittenGroup group) {
            turns.release();
          }
        };

    CompactionResult result;
    try {
      // the writer is under way before the compaction starts
      Conditions.await(
          "the writer's first commit",
          Duration.ofSeconds(60),
          () -> writer.operations >= 1 || writing.isDone());
      result =
          new TableCompactor(writerTurnPerGroup)
              .compact(
                  table,
                  CompactionRequest.builder()
                      .strategy(strategy)
                      .sortOrder("data DESC NULLS LAST, id")
                      .options(
                          Map.of(
                              "min-input-files",
                              "2",
                              "max-concurrent-file-group-rewrites",
                              "1",
                              "partial-progress.enabled",
                              "true",
                              "partial-progress.max-commits",
                              "4"))
                      .build());
      // let the writer go on for two more operations after the compaction's last commit
      int operationsAtEnd = writer.operations;
      turns.release(2);
      Conditions.await(
          "two more writer commits",
          Duration.ofSeconds(60),
          () -> writer.operations >= Math.max(3, operationsAtEnd + 2) || writing.isDone());
    } finally {
      stop.set(true);
      turns.release();
    }
    writing.get(60, TimeUnit.SECONDS);

    table.refresh();
    assertThat(writer.operations).isGreaterThanOrEqualTo(3);
    assertThat(result.committedGroups() + result.droppedGroups()).isEqualTo(result.fileGroups());
    assertThat(result.committedGroups()).isPositive();
    assertThat(RowFingerprint.of(table)).isEqualTo(reference(catalog, expected));
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  private static RowFingerprint reference(HadoopCatalog catalog, Map<Long, Integer> rows) {
    Table reference =
        catalog.createTable(
            TableIdentifier.of("db", "reference"),
            SimpleTables.SCHEMA,
            PartitionSpec.unpartitioned());
    List<Record> records = new ArrayList<>();
    rows.forEach((rowId, part) -> records.add(SimpleTables.row(reference.schema(), rowId, part)));
    TableFiles.append(reference, null, records);
    return RowFingerprint.of(reference);
  }

  /** Appends a file or deletes a few rows every 200 ms; every operation must succeed. */
  private static final class Writer {
    private final Table table;
    private final Map<Long, Integer> expected;
    private final Random random = new Random(7);
    private final List<WrittenFile> ownFiles = new ArrayList<>();
    private long nextId;
    private volatile int operations;

    Writer(Table table, Map<Long, Integer> expected, long firstId) {
      this.table = table;
      this.expected = expected;
      this.nextId = firstId;
    }

    /** One append or delete per turn taken from {@code turns}, until {@code stop}. */
    void run(AtomicBoolean stop, Semaphore turns) {
      while (true) {
        try {
          turns.acquire();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (stop.get()) {
          return;
        }
        if (operations % 2 == 0 || ownFiles.isEmpty()) {
          append();
        } else {
          deleteSome();
        }
        operations++;
      }
    }

    private void append() {
      int part = random.nextInt(4);
      DataFile file = SimpleTables.append(table, part, nextId, 100);
      ownFiles.add(new WrittenFile(file, nextId, part, table.currentSnapshot().snapshotId()));
      for (long row = nextId; row < nextId + 100; row++) {
        expected.put(row, part);
      }
      nextId += 100;
    }

    private void deleteSome() {
      WrittenFile target = ownFiles.get(random.nextInt(ownFiles.size()));
      long position = target.nextPosition++;
      if (position >= 100) {
        return;
      }
      table.refresh();
      DeleteFile deletes = TableFiles.writePositionDeletes(table, target.file(), position);
      try {
        table
            .newRowDelta()
            .addDeletes(deletes)
            .validateFromSnapshot(target.appendedIn())
            .validateDataFilesExist(List.of(target.file().location()))
            .commit();
      } catch (ValidationException rewrittenMeanwhile) {
        table.io().deleteFile(deletes.location());
        TableFiles.deleteEqual(
            table, SimpleTables.partition(table, target.part()), "id", target.firstId() + position);
      }
      expected.remove(target.firstId() + position);
    }
  }

  private static final class WrittenFile {
    private final DataFile file;
    private final long firstId;
    private final int part;
    private final long appendedIn;
    private long nextPosition;

    WrittenFile(DataFile file, long firstId, int part, long appendedIn) {
      this.file = file;
      this.firstId = firstId;
      this.part = part;
      this.appendedIn = appendedIn;
    }

    /** The snapshot that added the file: position deletes validate it still exists since then. */
    long appendedIn() {
      return appendedIn;
    }

    DataFile file() {
      return file;
    }

    long firstId() {
      return firstId;
    }

    int part() {
      return part;
    }
  }
}
