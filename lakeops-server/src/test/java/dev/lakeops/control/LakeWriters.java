package dev.lakeops.control;

import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Writer threads of a small live lake. Each keeps the rows it committed; any exception a commit
 * throws is kept in {@link #failures}. A CDC writer deletes by position in files it appended,
 * validated that the file still exists; when a compaction rewrote the file meanwhile it deletes the
 * same row by equality instead (as CDC writers do), which is counted, not a failure.
 */
final class LakeWriters implements AutoCloseable {
  final List<String> failures = new CopyOnWriteArrayList<>();
  final AtomicInteger commits = new AtomicInteger();
  final AtomicInteger equalityFallbacks = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final Map<String, Map<Long, Integer>> expected = new ConcurrentHashMap<>();

  /**
   * The rows a table should hold: what was written before the writers started, then what they
   * commit.
   */
  Map<Long, Integer> expected(Table table) {
    return expected.computeIfAbsent(table.name(), name -> new ConcurrentHashMap<>());
  }

  /**
   * Appends {@code files} files of {@code rows} rows to {@code part}, one commit each, and expects
   * them.
   */
  void preload(Table table, int part, int files, int rows, long firstId) {
    long id = firstId;
    for (int file = 0; file < files; file++) {
      SimpleTables.append(table, part, id, rows);
      expect(table, part, id, rows);
      id += rows;
    }
  }

  /** One tiny file every {@code intervalMillis}, over four partitions. */
  void streaming(Table table, long intervalMillis, long firstId) {
    start(
        "streaming-" + table.name(),
        () -> {
          long id = firstId;
          int index = 0;
          while (!stop.get()) {
            int part = index++ % 4;
            SimpleTables.append(table, part, id, 20);
            expect(table, part, id, 20);
            id += 20;
            commits.incrementAndGet();
            pause(intervalMillis);
          }
        });
  }

  /** A batch load of {@code files} small files in one commit every {@code intervalMillis}. */
  void batches(Table table, int files, long intervalMillis, long firstId) {
    start(
        "batch-" + table.name(),
        () -> {
          long id = firstId;
          int batch = 0;
          while (!stop.get()) {
            int part = batch++ % 2;
            AppendFiles append = table.newAppend();
            List<long[]> added = new ArrayList<>();
            for (int file = 0; file < files; file++) {
              append.appendFile(
                  TableFiles.write(
                      table,
                      SimpleTables.partition(table, part),
                      SimpleTables.rows(table.schema(), id, 50, part)));
              added.add(new long[] {id, part});
              id += 50;
            }
            append.commit();
            added.forEach(file -> expect(table, (int) file[1], file[0], 50));
            commits.incrementAndGet();
            pause(intervalMillis);
          }
        });
  }

  /** Appends a file or deletes one row by position every {@code intervalMillis}. */
  void cdc(Table table, long intervalMillis, long firstId) {
    start(
        "cdc-" + table.name(),
        () -> {
          Random random = new Random(11);
          List<Object[]> own = new ArrayList<>();
          long id = firstId;
          int operation = 0;
          while (!stop.get()) {
            if (operation++ % 2 == 0 || own.isEmpty()) {
              int part = random.nextInt(2);
              DataFile file = SimpleTables.append(table, part, id, 40);
              own.add(
                  new Object[] {
                    file, id, part, table.currentSnapshot().snapshotId(), new int[] {0}
                  });
              expect(table, part, id, 40);
              id += 40;
            } else {
              Object[] target = own.get(random.nextInt(own.size()));
              int position = ((int[]) target[4])[0]++;
              if (position < 40) {
                deleteRow(table, target, position);
              }
            }
            commits.incrementAndGet();
            pause(intervalMillis);
          }
        });
  }

  private void deleteRow(Table table, Object[] target, int position) {
    DataFile file = (DataFile) target[0];
    long rowId = (long) target[1] + position;
    int part = (int) target[2];
    table.refresh();
    DeleteFile deletes = TableFiles.writePositionDeletes(table, file, position);
    try {
      table
          .newRowDelta()
          .addDeletes(deletes)
          .validateFromSnapshot((long) target[3])
          .validateDataFilesExist(List.of(file.location()))
          .commit();
    } catch (ValidationException rewrittenMeanwhile) {
      table.io().deleteFile(deletes.location());
      TableFiles.deleteEqual(table, SimpleTables.partition(table, part), "id", rowId);
      equalityFallbacks.incrementAndGet();
    }
    expected(table).remove(rowId);
  }

  private void expect(Table table, int part, long firstId, int rows) {
    Map<Long, Integer> rowsOfTable = expected(table);
    for (long row = firstId; row < firstId + rows; row++) {
      rowsOfTable.put(row, part);
    }
  }

  private void start(String name, Runnable body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (RuntimeException | Error e) {
                failures.add(name + ": " + e);
              }
            },
            name);
    thread.start();
    threads.add(thread);
  }

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.set(true);
    }
  }

  /** Stops the writers and waits for their last commit. */
  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(60_000);
    }
  }

  /** The fingerprint of a table holding exactly the expected rows of {@code table}. */
  RowFingerprint expectedFingerprint(Catalog catalog, Table table) {
    TableIdentifier reference = TableIdentifier.of("reference", table.name().replace('.', '_'));
    Table copy = catalog.createTable(reference, SimpleTables.SCHEMA, PartitionSpec.unpartitioned());
    List<Record> records = new ArrayList<>();
    expected(table)
        .forEach((rowId, part) -> records.add(SimpleTables.row(copy.schema(), rowId, part)));
    TableFiles.append(copy, null, records);
    RowFingerprint fingerprint = RowFingerprint.of(copy);
    catalog.dropTable(reference, true);
    return fingerprint;
  }
}
