package dev.lakeops.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} in-process on a small live lake: a streaming table, a batch-loaded table, a CDC
 * table with position deletes in a nested namespace, an idle healthy and an idle fragmented table,
 * and a directory that only looks like a table, while writer threads commit.
 */
class ServeDaemonTest {
  static final String POLICY =
      """
      catalog:
        poll-interval: 1s
        max-poll-interval: 4s
        max-concurrent-tables: 2
        memory: 256MB
        compact:
          min-small-files: 8
          min-delete-files: 6
          min-interval: 3s
      tables:
        db.streaming:
          expire:
            older-than: 15s
            retain-last: 3
      """;

  @TempDir Path warehouse;
  @TempDir Path state;

  @Test
  void keepsALiveLakeHealthyWithoutFailingAWriter() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table streaming = SimpleTables.create(catalog, "streaming", 2, Map.of());
    Table batch = SimpleTables.create(catalog, "batch", 2, Map.of());
    Table healthy = SimpleTables.create(catalog, "idle_healthy", 2, Map.of());
    Table fragmented = SimpleTables.create(catalog, "idle_fragmented", 2, Map.of());
    catalog.createNamespace(Namespace.of("lake", "raw"));
    Table cdc =
        catalog.createTable(
            TableIdentifier.of(Namespace.of("lake", "raw"), "cdc"),
            SimpleTables.SCHEMA,
            PartitionSpec.builderFor(SimpleTables.SCHEMA).identity("part").build(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    Path notATable = warehouse.resolve("db").resolve("not_a_table").resolve("metadata");
    Files.createDirectories(notATable);
    Files.writeString(notATable.resolve("v1.metadata.json"), "this is not table metadata");

    try (LakeWriters writers = new LakeWriters();
        DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      writers.preload(healthy, 0, 3, 200, 0);
      writers.preload(fragmented, 0, 15, 30, 0);
      writers.preload(fragmented, 1, 15, 30, 10_000);
      Set<String> healthyFiles = dataFiles(healthy);

      serve.start(serve.settings(catalog, POLICY));
      writers.streaming(catalog.loadTable(TableIdentifier.of("db", "streaming")), 60, 0);
      writers.batches(catalog.loadTable(TableIdentifier.of("db", "batch")), 10, 1_500, 0);
      writers.cdc(catalog.loadTable(TableIdentifier.of(Namespace.of("lake", "raw"), "cdc")), 80, 0);

      DaemonHarness.await(
          "serve watching the lake",
          Duration.ofSeconds(20),
          () -> serve.log().contains("watching"));
      Table late = SimpleTables.create(catalog, "late", 2, Map.of());
      writers.preload(late, 3, 10, 30, 0);
      DaemonHarness.await(
          "compactions of every fragmented table, the one created while serve runs too",
          Duration.ofSeconds(60),
          () ->
              !serve.succeeded("db.idle_fragmented", "compact").isEmpty()
                  && !serve.succeeded("db.streaming", "compact").isEmpty()
                  && !serve.succeeded("db.batch", "compact").isEmpty()
                  // the CDC table's deletes applied by a compaction or its delete files rewritten
                  && java.util.stream.Stream.concat(
                          serve.succeeded("lake.raw.cdc", "compact").stream(),
                          serve.succeeded("lake.raw.cdc", "rewrite-position-deletes").stream())
                      .anyMatch(run -> run.figures().removedDeleteFiles() > 0)
                  && !serve.succeeded("db.late", "compact").isEmpty());
      catalog.dropTable(TableIdentifier.of("db", "late"), true);
      DaemonHarness.await(
          "the dropped table forgotten",
          Duration.ofSeconds(20),
          () -> serve.log().contains("db.late dropped"));

      writers.close();
      DaemonHarness.await(
          "the streaming table healthy after the writers stopped",
          Duration.ofSeconds(30),
          () -> score(catalog, "db", "streaming") >= 90 && score(catalog, "db", "batch") >= 90);
      // expiry waits for snapshots older than the policy's 15 s, orphan cleanup for its turn in the
      // queue
      DaemonHarness.await(
          "the streaming table's snapshots expired and the idle table's orphans swept",
          Duration.ofSeconds(60),
          () ->
              !serve.succeeded("db.streaming", "expire-snapshots").isEmpty()
                  && !serve.succeeded("db.idle_healthy", "remove-orphan-files").isEmpty());
      serve.stop(Duration.ofSeconds(60));

      assertThat(writers.failures).isEmpty();
      assertThat(writers.commits.get()).isGreaterThan(30);
      for (Table table : List.of(streaming, batch, healthy, fragmented, cdc)) {
        table.refresh();
        assertThat(RowFingerprint.of(table))
            .as(table.name())
            .isEqualTo(writers.expectedFingerprint(catalog, table));
      }

      healthy.refresh();
      assertThat(dataFiles(healthy)).isEqualTo(healthyFiles);
      assertThat(serve.runs("db.idle_healthy"))
          .extracting(RunRecord::operation)
          .doesNotContain("compact");
      assertThat(score(catalog, "db", "idle_fragmented")).isGreaterThanOrEqualTo(90);

      RunRecord compaction = serve.succeeded("db.idle_fragmented", "compact").get(0);
      fragmented.refresh();
      assertThat(compaction.start().host()).isEqualTo(RunHost.SERVE);
      assertThat(compaction.start().reason())
          .contains("part=0: 15 small files >= 8")
          .contains("part=1: 15 small files >= 8");
      assertThat(compaction.figures().inputFiles()).isEqualTo(30);
      assertThat(compaction.figures().outputFiles()).isEqualTo(2);
      assertThat(compaction.figures().outputBytes())
          .isEqualTo(dataFiles(fragmented).size() == 2 ? totalBytes(fragmented) : -1);
      assertThat(compaction.figures().snapshotId().getAsLong())
          .isEqualTo(fragmented.currentSnapshot().snapshotId());
      assertThat(compaction.figures().peakMemoryBytes()).isPositive();
      assertThat(serve.succeeded("db.idle_fragmented", "compact")).hasSize(1);
      assertThat(serve.succeeded("lake.raw.cdc", "compact"))
          .anySatisfy(run -> assertThat(run.start().reason()).contains("part="));
      assertThat(serve.log()).contains("db.late found");
      assertThat(serve.succeeded("db.streaming", "expire-snapshots")).isNotEmpty();
      assertThat(serve.succeeded("db.idle_healthy", "remove-orphan-files")).hasSize(1);
      assertThat(serve.ledger.list(dev.lakeops.ledger.RunQuery.all()))
          .allSatisfy(
              run ->
                  assertThat(run.status())
                      .isIn(RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.ABANDONED));
      assertThat(serve.log()).contains("db.not_a_table skipped: not a readable Iceberg table");
      assertThat(serve.log()).contains("db.idle_fragmented compact due: ");
    }
  }

  @Test
  void onceRunsWhatIsDueAndReturnsAndDryRunChangesNothing() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table fragmented = SimpleTables.create(catalog, "fragmented", 2, Map.of());
    Table healthy = SimpleTables.create(catalog, "healthy", 2, Map.of());
    try (LakeWriters writers = new LakeWriters();
        DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      writers.preload(fragmented, 0, 20, 30, 0);
      writers.preload(healthy, 0, 2, 30, 0);
      String metadataBefore = metadataLocation(fragmented);

      serve.runToEnd(serve.settings(catalog, POLICY).withOnce(true).withDryRun(true));

      assertThat(metadataLocation(fragmented)).isEqualTo(metadataBefore);
      assertThat(serve.runs("db.fragmented")).isEmpty();
      assertThat(serve.log())
          .contains("db.fragmented compact would run: part=0: 20 small files >= 8");

      long started = System.nanoTime();
      serve.runToEnd(serve.settings(catalog, POLICY).withOnce(true));
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));

      assertThat(serve.succeeded("db.fragmented", "compact")).hasSize(1);
      assertThat(serve.succeeded("db.healthy", "compact")).isEmpty();
      assertThat(score(catalog, "db", "fragmented")).isGreaterThanOrEqualTo(90);
      fragmented.refresh();
      assertThat(RowFingerprint.of(fragmented))
          .isEqualTo(writers.expectedFingerprint(catalog, fragmented));
      assertThat(serve.log()).contains("db.fragmented compact succeeded");
    }
  }

  @Test
  void aTableLockedByAnotherEngineIsSkippedNotWaitedOnThenCompacted() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table locked = SimpleTables.create(catalog, "locked", 2, Map.of());
    Table free = SimpleTables.create(catalog, "free", 2, Map.of());
    try (LakeWriters writers = new LakeWriters();
        DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      writers.preload(locked, 0, 12, 30, 0);
      writers.preload(free, 0, 12, 30, 0);
      HeldTableLock spark =
          new TableLocks(LockOptions.defaults().withOwnerLabel("spark")).acquire(locked);
      serve.start(serve.settings(catalog, POLICY));
      DaemonHarness.await(
          "the free table compacted",
          Duration.ofSeconds(30),
          () -> !serve.succeeded("db.free", "compact").isEmpty());
      DaemonHarness.await(
          "the locked table skipped",
          Duration.ofSeconds(30),
          () ->
              serve
                  .log()
                  .lines()
                  .anyMatch(line -> line.contains(" db.locked ") && line.contains(" locked in ")));
      assertThat(serve.succeeded("db.locked", "compact")).isEmpty();
      assertThat(serve.runs("db.locked"))
          .anySatisfy(
              run -> {
                assertThat(run.status()).isEqualTo(RunStatus.ABANDONED);
                assertThat(run.error().orElseThrow()).startsWith("skipped: ").contains("spark@");
              });
      spark.close();
      DaemonHarness.await(
          "the locked table compacted once free",
          Duration.ofSeconds(30),
          () -> !serve.succeeded("db.locked", "compact").isEmpty());
      serve.stop(Duration.ofSeconds(30));
      locked.refresh();
      assertThat(RowFingerprint.of(locked)).isEqualTo(writers.expectedFingerprint(catalog, locked));
    }
  }

  /**
   * Delete files that name rows of large data files cost less to rewrite than those data files:
   * serve rewrites them, says why, records the run, and leaves the data files and the rows alone.
   */
  @Test
  void deleteFilesCheaperToRewriteThanTheirDataAreRewrittenOnTheirOwn() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table cdc =
        SimpleTables.create(
            catalog, "cdc", 2, Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "4096"));
    for (int file = 0; file < 6; file++) {
      DataFile data = SimpleTables.append(cdc, 0, file * 2_000L, 2_000);
      cdc.newRowDelta()
          .addDeletes(dev.lakeops.testing.TableFiles.writePositionDeletes(cdc, data, 7, 8))
          .commit();
    }
    Set<String> dataBefore = dataFiles(cdc);
    RowFingerprint rowsBefore = RowFingerprint.of(cdc);
    try (DaemonHarness serve = new DaemonHarness(state.resolve("lakeops.db"))) {
      serve.runToEnd(serve.settings(catalog, POLICY).withOnce(true));

      List<RunRecord> rewrites = serve.succeeded("db.cdc", "rewrite-position-deletes");
      assertThat(rewrites).hasSize(1);
      assertThat(rewrites.get(0).start().reason())
          .startsWith(
              "part=0: 6 delete files >= 6; rewrite-position-deletes: rewriting the delete files"
                  + " removes 5 per ");
      assertThat(rewrites.get(0).figures().inputFiles()).isEqualTo(6);
      assertThat(rewrites.get(0).figures().outputFiles()).isEqualTo(1);
      assertThat(rewrites.get(0).figures().removedDeleteFiles()).isEqualTo(5);
      assertThat(serve.succeeded("db.cdc", "compact")).isEmpty();
      assertThat(serve.log())
          .contains("db.cdc rewrite-position-deletes due: part=0: 6 delete files >= 6;")
          .contains("db.cdc rewrite-position-deletes succeeded");
    }
    cdc.refresh();
    assertThat(dataFiles(cdc)).isEqualTo(dataBefore);
    assertThat(RowFingerprint.of(cdc)).isEqualTo(rowsBefore);
    assertThat(rowsBefore.rowCount()).isEqualTo(12_000 - 12);
    assertThat(new TableHealthTracker().evaluate(cdc).table().deleteFiles()).isEqualTo(1);
  }

  static int score(HadoopCatalog catalog, String namespace, String name) {
    Table table = catalog.loadTable(TableIdentifier.of(namespace, name));
    return new TableHealthTracker().evaluate(table).score().score();
  }

  private static String metadataLocation(Table table) {
    table.refresh();
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .current()
        .metadataFileLocation();
  }

  private static Set<String> dataFiles(Table table) throws Exception {
    Set<String> files = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file().location());
      }
    }
    return files;
  }

  private static long totalBytes(Table table) throws Exception {
    long bytes = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        bytes += file.fileSizeInBytes();
      }
    }
    return bytes;
  }
}
