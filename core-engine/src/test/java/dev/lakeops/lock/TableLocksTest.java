package dev.lakeops.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.testing.Conditions;
import dev.lakeops.testing.SettableClock;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableLocksTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));
  private static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "locked");

  @TempDir Path warehouse;
  private HadoopCatalog catalog;
  private Table table;
  private ExecutorService threads;

  @BeforeEach
  void createTable() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        catalog.createTable(
            IDENTIFIER,
            SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    threads = Executors.newFixedThreadPool(4);
  }

  @AfterEach
  void stopThreads() throws InterruptedException {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void leaseLivesInTablePropertiesWithoutAddingSnapshots() {
    appendFiles(2);
    long snapshot = table.currentSnapshot().snapshotId();
    int metadataLog = metadataLogSize();

    TableLocks locks = new TableLocks(LockOptions.defaults().withOwnerLabel("cli"));
    try (HeldTableLock lock = locks.acquire(table)) {
      Table seenByAnotherEngine = catalog.loadTable(IDENTIFIER);
      assertThat(seenByAnotherEngine.properties())
          .containsEntry(TableLease.OWNER_PROPERTY, lock.owner())
          .containsEntry(TableLease.EXPIRES_AT_PROPERTY, lock.expiresAt().toString());
      assertThat(lock.owner()).startsWith("cli@");
    }

    Table after = catalog.loadTable(IDENTIFIER);
    assertThat(after.properties())
        .doesNotContainKeys(TableLease.OWNER_PROPERTY, TableLease.EXPIRES_AT_PROPERTY);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(after.snapshots()).hasSize(2);
    // One metadata version to take the lease, one to release it.
    assertThat(metadataLogSize()).isEqualTo(metadataLog + 2);
  }

  @Test
  void compactionReleasesThePropertyLeaseInItsOwnCommit() {
    appendFiles(6);
    RowFingerprint before = RowFingerprint.of(table);
    int metadataLog = metadataLogSize();

    CompactionResult result =
        new TableCompactor(CompactionListener.NONE, LockOptions.defaults().withOwnerLabel("cli"))
            .compact(table, CompactionRequest.binpack());

    assertThat(result.outputFiles()).isEqualTo(1);
    // One metadata version takes the lease; the rewrite's commit carries its release.
    assertThat(metadataLogSize()).isEqualTo(metadataLog + 2);
    Table after = catalog.loadTable(IDENTIFIER);
    assertThat(after.properties())
        .doesNotContainKeys(TableLease.OWNER_PROPERTY, TableLease.EXPIRES_AT_PROPERTY);
    assertThat(after.currentSnapshot().snapshotId()).isEqualTo(result.snapshotId().getAsLong());
    assertThat(RowFingerprint.of(after)).isEqualTo(before);
    try (HeldTableLock next = new TableLocks(LockOptions.defaults()).acquire(after)) {
      assertThat(next.owner()).isNotEmpty();
    }
  }

  @Test
  void secondCompactorIsRefusedWithOneLineNamingHolderAndExpiry() {
    TableLocks locks = new TableLocks(LockOptions.defaults().withOwnerLabel("flink"));
    try (HeldTableLock lock = locks.acquire(table)) {
      Table otherProcess = catalog.loadTable(IDENTIFIER);
      assertThatThrownBy(() -> new TableLocks(LockOptions.defaults()).acquire(otherProcess))
          .isInstanceOf(TableLockedException.class)
          .hasMessage(
              "Table "
                  + table.name()
                  + " is being compacted by "
                  + lock.owner()
                  + " with a lease expiring at "
                  + lock.expiresAt()
                  + "; gave up after waiting PT0S (the lock wait; raise it to queue instead)")
          .satisfies(error -> assertThat(error.getMessage()).doesNotContain("\n"));
    }
  }

  @Test
  void onlyOneOfManyConcurrentTakersWins() throws Exception {
    int takers = 4;
    CountDownLatch start = new CountDownLatch(1);
    // The winner holds the lock until every other taker has been refused.
    CountDownLatch refused = new CountDownLatch(takers - 1);
    List<Future<String>> outcomes = new ArrayList<>();
    for (int index = 0; index < takers; index++) {
      Table ownCopy = catalog.loadTable(IDENTIFIER);
      outcomes.add(
          threads.submit(
              () -> {
                start.await();
                try (HeldTableLock lock = new TableLocks(LockOptions.defaults()).acquire(ownCopy)) {
                  refused.await(60, TimeUnit.SECONDS);
                  return "won";
                } catch (TableLockedException e) {
                  refused.countDown();
                  return "refused";
                }
              }));
    }
    start.countDown();
    List<String> results = new ArrayList<>();
    for (Future<String> outcome : outcomes) {
      results.add(outcome.get(90, TimeUnit.SECONDS));
    }
    assertThat(results).containsOnlyOnce("won").hasSize(takers);
  }

  @Test
  void waitingCompactorTakesTheLockOnceTheHolderReleasesIt() throws Exception {
    HeldTableLock first = new TableLocks(LockOptions.defaults()).acquire(table);
    Table otherProcess = catalog.loadTable(IDENTIFIER);
    SettableClock clock = new SettableClock(Instant.now());
    LockOptions waiting =
        LockOptions.defaults()
            .withMaximumWait(Duration.ofSeconds(20))
            .withPollInterval(Duration.ofMillis(50))
            .withClock(clock);
    Future<String> second =
        threads.submit(
            () -> {
              try (HeldTableLock lock = new TableLocks(waiting).acquire(otherProcess)) {
                return lock.owner();
              }
            });
    // each attempt reads the clock once: a second read means the first found the lock held
    Conditions.await(
        "the waiting compactor's second attempt", Duration.ofSeconds(20), () -> clock.reads() >= 2);
    assertThat(second).isNotDone();
    first.close();
    assertThat(second.get(20, TimeUnit.SECONDS)).isNotEqualTo(first.owner());
  }

  @Test
  void crashedHoldersLeaseExpires() throws Exception {
    SettableClock clock = new SettableClock(Instant.now());
    Instant expiry = clock.instant().plusMillis(1500);
    // A holder that crashed leaves its lease behind and never renews it.
    table
        .updateProperties()
        .set(TableLease.OWNER_PROPERTY, "spark@gone:1/deadbeef")
        .set(TableLease.EXPIRES_AT_PROPERTY, expiry.toString())
        .commit();

    assertThatThrownBy(() -> new TableLocks(LockOptions.defaults().withClock(clock)).acquire(table))
        .isInstanceOf(TableLockedException.class)
        .hasMessageContaining("spark@gone:1/deadbeef")
        .hasMessageContaining("a lease expiring at " + expiry);

    LockOptions waiting =
        LockOptions.defaults()
            .withMaximumWait(Duration.ofSeconds(20))
            .withPollInterval(Duration.ofMillis(20))
            .withClock(clock);
    int readsBefore = clock.reads();
    Future<String> waiter =
        threads.submit(
            () -> {
              try (HeldTableLock lock =
                  new TableLocks(waiting).acquire(catalog.loadTable(IDENTIFIER))) {
                return lock.owner();
              }
            });
    Conditions.await(
        "the waiter's second look at the crashed lease",
        Duration.ofSeconds(20),
        () -> clock.reads() >= readsBefore + 2);
    assertThat(waiter).isNotDone();

    clock.advance(Duration.ofMillis(1501));
    String owner = waiter.get(20, TimeUnit.SECONDS);
    assertThat(owner).isNotEqualTo("spark@gone:1/deadbeef");
    assertThat(catalog.loadTable(IDENTIFIER).properties())
        .doesNotContainKey(TableLease.OWNER_PROPERTY);
  }

  @Test
  void expiredLeaseIsTakenAtOnce() {
    table
        .updateProperties()
        .set(TableLease.OWNER_PROPERTY, "trino@gone:2/cafebabe")
        .set(TableLease.EXPIRES_AT_PROPERTY, Instant.now().minusSeconds(1).toString())
        .commit();
    try (HeldTableLock lock = new TableLocks(LockOptions.defaults()).acquire(table)) {
      assertThat(lock.owner()).isNotEqualTo("trino@gone:2/cafebabe");
    }
  }

  @Test
  void leaseWithoutReadableExpiryNeverExpiresAndSaysHowToClearIt() {
    table.updateProperties().set(TableLease.OWNER_PROPERTY, "someone").commit();
    assertThatThrownBy(() -> new TableLocks(LockOptions.defaults()).acquire(table))
        .isInstanceOf(TableLockedException.class)
        .hasMessage(
            "Table "
                + table.name()
                + " is being compacted by someone with no readable expiry"
                + " (remove table properties lakeops.lock.owner and lakeops.lock.expires-at if no"
                + " compaction runs); gave up after waiting PT0S (the lock wait; raise it to queue"
                + " instead)");
  }

  @Test
  void holderRenewsItsLeaseWhileRunning() throws Exception {
    LockOptions shortLease = LockOptions.defaults().withLeaseDuration(Duration.ofMillis(900));
    try (HeldTableLock lock = new TableLocks(shortLease).acquire(table)) {
      Instant firstExpiry = lock.expiresAt();
      Conditions.await(
          "a renewal of the lease",
          Duration.ofSeconds(20),
          () -> lock.expiresAt().isAfter(firstExpiry));
      Table otherProcess = catalog.loadTable(IDENTIFIER);
      assertThat(lock.expiresAt()).isAfter(firstExpiry);
      assertThat(lock.lost()).isFalse();
      assertThatThrownBy(() -> new TableLocks(LockOptions.defaults()).acquire(otherProcess))
          .isInstanceOf(TableLockedException.class)
          .hasMessageContaining(lock.owner());
    }
  }

  @Test
  void leaseCommitsDoNotFailRewriteValidation() {
    List<DataFile> files = appendFiles(3);
    long start = table.currentSnapshot().snapshotId();
    try (HeldTableLock lock = new TableLocks(LockOptions.defaults()).acquire(table)) {
      DataFile merged = TableFiles.write(table, null, rows(0, 30));
      lock.renew();
      table.refresh();
      table
          .newRewrite()
          .validateFromSnapshot(start)
          .deleteFile(files.get(0))
          .deleteFile(files.get(1))
          .deleteFile(files.get(2))
          .addFile(merged)
          .commit();
    }
    table.refresh();
    assertThat(table.currentSnapshot().parentId()).isEqualTo(start);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(30);
  }

  @Test
  void compactionIsRefusedWhileAnotherCompactorHoldsTheLock() {
    appendFiles(6);
    RowFingerprint before = RowFingerprint.of(table);
    Table otherProcess = catalog.loadTable(IDENTIFIER);
    try (HeldTableLock lock =
        new TableLocks(LockOptions.defaults().withOwnerLabel("flink")).acquire(otherProcess)) {
      assertThatThrownBy(() -> new TableCompactor().compact(table, CompactionRequest.binpack()))
          .isInstanceOf(TableLockedException.class)
          .hasMessageStartingWith(
              "Table " + table.name() + " is being compacted by " + lock.owner());
      CompactionResult plan =
          new TableCompactor().compact(table, CompactionRequest.builder().dryRun(true).build());
      assertThat(plan.inputFiles()).isEqualTo(6);
    }

    CompactionResult result =
        new TableCompactor(CompactionListener.NONE, LockOptions.defaults().withOwnerLabel("cli"))
            .compact(table, CompactionRequest.binpack());
    assertThat(result.outputFiles()).isEqualTo(1);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(table.properties())
        .doesNotContainKeys(TableLease.OWNER_PROPERTY, TableLease.EXPIRES_AT_PROPERTY);
  }

  private int metadataLogSize() {
    return ((org.apache.iceberg.HasTableOperations) catalog.loadTable(IDENTIFIER))
        .operations()
        .current()
        .previousFiles()
        .size();
  }

  private List<DataFile> appendFiles(int count) {
    List<DataFile> files = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      files.add(TableFiles.append(table, null, rows(index * 10, index * 10 + 10)));
    }
    table.refresh();
    return files;
  }

  private static List<Record> rows(int from, int to) {
    List<Record> rows = new ArrayList<>();
    for (int id = from; id < to; id++) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", (long) id);
      row.setField("data", "row-" + id);
      rows.add(row);
    }
    return rows;
  }
}
