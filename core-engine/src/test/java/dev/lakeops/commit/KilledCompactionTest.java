package dev.lakeops.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.lock.TableLease;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a compaction JVM ({@code destroyForcibly}, i.e. {@code kill -9}) at {@link #KILLS} = 20
 * random moments, as the issue asks. A first run goes to the end to measure how long a compaction
 * takes once the child has loaded the table; each later run is killed at a random moment within
 * that time after the child reports "started" (runs that finish first do not count as kills), so
 * the kills land in planning, rewriting and committing (partial progress commits per group). A
 * small table (four partitions, four 200-row files each appended before every run) keeps the test
 * under two minutes on the shared 2-core build machine.
 */
class KilledCompactionTest {
  private static final int KILLS = 20;
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;

  @Test
  void killedCompactionsLeaveRowsUnchangedAndOnlyOrphansBehind() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    Random random = new Random(20);
    long nextId = appendFiles(table, 0, 4, 4);
    long compactionMillis = calibrate();
    List<String> outcomes = new ArrayList<>();
    int kills = 0;
    for (int run = 0; kills < KILLS && run < KILLS + 10; run++) {
      nextId = appendFiles(table, nextId, 4, 4);
      RowFingerprint before = RowFingerprint.of(table);
      Process process = startCompaction();
      awaitStarted(process);
      long delayMillis = random.nextInt((int) compactionMillis + 1);
      boolean exited = process.waitFor(delayMillis, TimeUnit.MILLISECONDS);
      if (!exited) {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        kills++;
      }
      outcomes.add(
          exited
              ? "finished (exit " + process.exitValue() + ")"
              : "killed " + delayMillis + " ms in");
      assertThat(!exited || process.exitValue() == 0)
          .as("runs: %s, last log: %s", outcomes, Files.readString(childLog()))
          .isTrue();
      if (!exited) {
        expireLease(catalog.loadTable(NAME));
      }

      Table reloaded = catalog.loadTable(NAME);
      assertThat(RowFingerprint.of(reloaded))
          .as("rows after run %d: %s", run, outcomes)
          .isEqualTo(before);
      assertThat(TableListing.filesOnDisk(reloaded))
          .containsAll(TableListing.referencedFiles(reloaded));
    }
    assertThat(kills).as("runs: %s", outcomes).isEqualTo(KILLS);

    Table table2 = catalog.loadTable(NAME);
    RowFingerprint finalRows = RowFingerprint.of(table2);
    Set<String> leftovers = TableListing.unreferencedFiles(table2);
    System.out.println(
        "KilledCompactionTest: " + outcomes + "; " + leftovers.size() + " unreferenced files left");
    assertThat(leftovers).as("files written by killed runs").isNotEmpty();
    OrphanRemovalResult removal =
        new OrphanFileRemover()
            .remove(
                table2,
                OrphanRemovalOptions.builder()
                    .olderThan(Duration.ZERO)
                    .allowBelowSafetyFloor(true)
                    .build());
    assertThat(removal.orphanFiles().stream().map(path -> path.replaceFirst("^file:", "")).toList())
        .containsAll(leftovers);
    assertThat(TableListing.unreferencedFiles(catalog.loadTable(NAME))).isEmpty();
    assertThat(RowFingerprint.of(catalog.loadTable(NAME))).isEqualTo(finalRows);
  }

  private long appendFiles(Table table, long firstId, int partitions, int filesPerPartition) {
    long id = firstId;
    AppendFiles append = table.newAppend();
    for (int part = 0; part < partitions; part++) {
      for (int file = 0; file < filesPerPartition; file++) {
        append.appendFile(
            TableFiles.write(
                table,
                SimpleTables.partition(table, part),
                SimpleTables.rows(table.schema(), id, 200, part)));
        id += 200;
      }
    }
    append.commit();
    return id;
  }

  /**
   * A killed compactor's table lock frees itself when its lease (five minutes by default) runs out;
   * the test removes the lease instead of waiting, as if that time had passed.
   */
  private static void expireLease(Table table) {
    if (table.properties().containsKey(TableLease.OWNER_PROPERTY)) {
      table
          .updateProperties()
          .remove(TableLease.OWNER_PROPERTY)
          .remove(TableLease.EXPIRES_AT_PROPERTY)
          .commit();
    }
  }

  /** Runs one compaction to the end; returns how long it ran after loading the table. */
  private long calibrate() throws Exception {
    Process process = startCompaction();
    long started = awaitStarted(process);
    assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(Files.readString(childLog())).isZero();
    return Math.max(200, (System.nanoTime() - started) / 1_000_000);
  }

  /**
   * Waits until the child has loaded the table and is about to compact (it prints "started");
   * returns that moment. A thread copies the child's output to the child log, line by line.
   */
  private long awaitStarted(Process process) throws Exception {
    CompletableFuture<Long> started = new CompletableFuture<>();
    Thread copier = new Thread(() -> copyOutput(process, started), "compaction-jvm-output");
    copier.setDaemon(true);
    copier.start();
    try {
      return started.get(1, TimeUnit.MINUTES);
    } catch (TimeoutException e) {
      process.destroyForcibly();
      throw new AssertionError("compaction JVM did not start within a minute", e);
    } catch (ExecutionException e) {
      throw new AssertionError(
          "compaction JVM exited before starting: " + e.getCause().getMessage());
    }
  }

  private void copyOutput(Process process, CompletableFuture<Long> started) {
    StringBuilder seen = new StringBuilder();
    try (BufferedReader output = process.inputReader();
        BufferedWriter log = Files.newBufferedWriter(childLog())) {
      String line;
      while ((line = output.readLine()) != null) {
        log.write(line);
        log.newLine();
        log.flush();
        if (!started.isDone()) {
          seen.append(line).append('\n');
        }
        if (line.equals("started")) {
          started.complete(System.nanoTime());
        }
      }
      started.completeExceptionally(new IllegalStateException(seen.toString()));
    } catch (IOException e) {
      started.completeExceptionally(e);
    }
  }

  private Path childLog() {
    return warehouse.resolve("child.log");
  }

  private Process startCompaction() throws IOException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-Xmx512m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-cp",
            classPath,
            CompactionMain.class.getName(),
            warehouse.toString())
        .redirectErrorStream(true)
        .start();
  }
}
