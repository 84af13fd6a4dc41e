package dev.lakeops.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.ledger.JdbcLeaseTable;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.Conditions;
import dev.lakeops.testing.SettableClock;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.HasTableOperations;
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

/**
 * The lease kept as a row of a real SQLite run store: it never commits to the table, two hosts
 * sharing the store never hold it at once, a dead holder's lease expires, and a store-less host's
 * lease in the table properties is respected.
 */
class StoreLeaseTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "data", Types.StringType.get()));
  private static final TableIdentifier IDENTIFIER = TableIdentifier.of("db", "leased");

  @TempDir Path warehouse;
  @TempDir Path storeDirectory;
  private HadoopCatalog catalog;
  private Table table;
  private StoreLocation store;
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
    store = StoreLocation.sqliteFile(storeDirectory.resolve("lakeops.db"));
    threads = Executors.newFixedThreadPool(4);
  }

  @AfterEach
  void stopThreads() throws InterruptedException {
    threads.shutdownNow();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void leaseInTheStoreAddsNoMetadataVersionAndRefusesASecondHost() {
    appendFiles(2);
    int metadataLog = metadataLogSize();

    try (HeldTableLock lock = new TableLocks(stored("cli")).acquire(table)) {
      assertThat(lock.owner()).startsWith("cli@");
      Table otherHost = catalog.loadTable(IDENTIFIER);
      assertThat(otherHost.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
      assertThatThrownBy(() -> new TableLocks(stored("spark")).acquire(otherHost))
          .isInstanceOf(TableLockedException.class)
          .hasMessage(
              "Table "
                  + table.name()
                  + " is being compacted by "
                  + lock.owner()
                  + " with a lease expiring at "
                  + lock.expiresAt()
                  + "; gave up after waiting PT0S (the lock wait; raise it to queue instead)");
    }
    try (HeldTableLock again = new TableLocks(stored("spark")).acquire(table)) {
      assertThat(again.owner()).startsWith("spark@");
    }
    assertThat(metadataLogSize()).isEqualTo(metadataLog);
  }

  @Test
  void compactionWithTheStoreLeaseAddsExactlyOneMetadataVersion() {
    appendFiles(6);
    RowFingerprint before = RowFingerprint.of(table);
    int metadataLog = metadataLogSize();

    CompactionResult result =
        new TableCompactor(CompactionListener.NONE, stored("cli"))
            .compact(table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(6);
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(metadataLogSize()).isEqualTo(metadataLog + 1);
    Table after = catalog.loadTable(IDENTIFIER);
    assertThat(RowFingerprint.of(after)).isEqualTo(before);
    assertThat(after.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
  }

  @Test
  void refusedCompactionTouchesNeitherTableNorStore() {
    appendFiles(6);
    int metadataLog = metadataLogSize();

    assertThatThrownBy(
            () ->
                new TableCompactor(CompactionListener.NONE, stored("cli"))
                    .compact(
                        table,
                        CompactionRequest.builder().options(Map.of("no-such-option", "1")).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown rewrite option 'no-such-option'");

    assertThat(metadataLogSize()).isEqualTo(metadataLog);
    assertThat(Files.exists(storeDirectory.resolve("lakeops.db"))).isFalse();
  }

  @Test
  void onlyOneOfManyHostsSharingTheStoreWins() throws Exception {
    int takers = 4;
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch refused = new CountDownLatch(takers - 1);
    List<Future<String>> outcomes = new ArrayList<>();
    for (int index = 0; index < takers; index++) {
      Table ownCopy = catalog.loadTable(IDENTIFIER);
      outcomes.add(
          threads.submit(
              () -> {
                start.await();
                try (HeldTableLock lock = new TableLocks(stored("serve")).acquire(ownCopy)) {
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
  void deadHoldersLeaseExpires() throws Exception {
    SettableClock clock = new SettableClock(Instant.now());
    // the store keeps milliseconds
    Instant expiry = clock.instant().plusMillis(1500).truncatedTo(ChronoUnit.MILLIS);
    // A holder that died leaves its row behind and never renews it.
    try (JdbcLeaseTable leases = JdbcLeaseTable.open(store)) {
      assertThat(
              leases.take(
                  StoreLeaseKeeper.tableKey(table), "spark@gone:1/deadbeef", expiry, Instant.EPOCH))
          .isTrue();
    }
    LockOptions options = stored("cli").withClock(clock);
    assertThatThrownBy(() -> new TableLocks(options).acquire(table))
        .isInstanceOf(TableLockedException.class)
        .hasMessageContaining("spark@gone:1/deadbeef")
        .hasMessageContaining("a lease expiring at " + expiry);

    clock.advance(Duration.ofMillis(1501));
    try (HeldTableLock lock = new TableLocks(options).acquire(table)) {
      assertThat(lock.owner()).startsWith("cli@");
    }
  }

  @Test
  void renewalUpdatesTheRowAndNeverTheTable() {
    int metadataLog = metadataLogSize();
    LockOptions shortLease = stored("cli").withLeaseDuration(Duration.ofMillis(900));
    try (HeldTableLock lock = new TableLocks(shortLease).acquire(table)) {
      Instant firstExpiry = lock.expiresAt();
      Conditions.await(
          "a renewal of the lease",
          Duration.ofSeconds(20),
          () -> lock.expiresAt().isAfter(firstExpiry));
      assertThat(lock.lost()).isFalse();
      assertThatThrownBy(() -> new TableLocks(stored("flink")).acquire(table))
          .isInstanceOf(TableLockedException.class)
          .hasMessageContaining(lock.owner());
    }
    assertThat(metadataLogSize()).isEqualTo(metadataLog);
  }

  @Test
  void leaseOfAHostWithoutTheStoreIsRespected() {
    try (HeldTableLock propertyLease =
        new TableLocks(LockOptions.defaults().withOwnerLabel("trino")).acquire(table)) {
      Table otherHost = catalog.loadTable(IDENTIFIER);
      assertThatThrownBy(() -> new TableLocks(stored("cli")).acquire(otherHost))
          .isInstanceOf(TableLockedException.class)
          .hasMessageContaining("is being compacted by " + propertyLease.owner());
    }
  }

  private LockOptions stored(String ownerLabel) {
    return LockOptions.defaults().withOwnerLabel(ownerLabel).withLeaseStore(Optional.of(store));
  }

  private int metadataLogSize() {
    return ((HasTableOperations) catalog.loadTable(IDENTIFIER))
        .operations()
        .current()
        .previousFiles()
        .size();
  }

  private void appendFiles(int count) {
    for (int index = 0; index < count; index++) {
      TableFiles.append(table, null, rows(index * 10, index * 10 + 10));
    }
    table.refresh();
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
