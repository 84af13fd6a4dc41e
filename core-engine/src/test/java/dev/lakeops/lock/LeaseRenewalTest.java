package dev.lakeops.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.testing.Conditions;
import dev.lakeops.testing.ForwardingTableOperations;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.verify.RowFingerprint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.io.output.TeeOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction outlasting its lease renewal interval: with a 90 ms lease the holder renews every 30
 * ms, and a catalog whose snapshot commits last until a renewal falls due (and waits behind the
 * commit) makes every compaction commit overlap a renewal, as a compaction of more than 100 s does
 * with the default 5-minute lease.
 */
class LeaseRenewalTest {
  private static final Duration SHORT_LEASE = Duration.ofMillis(90);

  @TempDir Path warehouse;
  private Table catalogTable;
  private SlowCatalogOperations operations;
  private Table table;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    catalogTable = SimpleTables.create(catalog, "renewed", 2, Map.of());
    for (int file = 0; file < 6; file++) {
      SimpleTables.append(catalogTable, file % 2, file * 100L, 100);
    }
    operations = new SlowCatalogOperations(((HasTableOperations) catalogTable).operations());
    table = new BaseTable(operations, catalogTable.name());
  }

  @Test
  void renewalsNeverConflictWithTheCompactionsOwnCommits() {
    RowFingerprint before = RowFingerprint.of(table);
    LockOptions options = LockOptions.defaults().withLeaseDuration(SHORT_LEASE);
    String standardError =
        capturingStandardError(
            () -> {
              CompactionResult result =
                  new TableCompactor(CompactionListener.NONE, options)
                      .compact(
                          table,
                          CompactionRequest.builder()
                              .options(Map.of("min-input-files", "2"))
                              .build());
              assertThat(result.inputFiles()).isEqualTo(6);
            });

    assertThat(operations.leaseRenewals.get()).as("renewals while compacting").isPositive();
    assertThat(operations.failedSnapshotCommits.get())
        .as("snapshot commits that lost to a renewal")
        .isZero();
    assertThat(standardError).doesNotContain("Retrying task after failure").doesNotContain("\tat ");
    catalogTable.refresh();
    assertThat(catalogTable.properties()).doesNotContainKey(TableLease.OWNER_PROPERTY);
    assertThat(RowFingerprint.of(catalogTable)).isEqualTo(before);
  }

  @Test
  void renewalLosingToAnotherWritersCommitRetriesQuietly() {
    LockOptions options = LockOptions.defaults().withLeaseDuration(Duration.ofMinutes(5));
    try (HeldTableLock lock = new TableLocks(options).acquire(table)) {
      Instant firstExpiry = lock.expiresAt();
      operations.failNextPropertyCommit.set(true);
      String standardError = capturingStandardError(lock::renew);
      assertThat(operations.failNextPropertyCommit.get()).as("the renewal lost once").isFalse();
      assertThat(lock.expiresAt()).isAfter(firstExpiry);
      assertThat(lock.lost()).isFalse();
      assertThat(standardError).isEmpty();
      catalogTable.refresh();
      assertThat(catalogTable.properties())
          .containsEntry(TableLease.EXPIRES_AT_PROPERTY, lock.expiresAt().toString());
    }
  }

  private static String capturingStandardError(Runnable action) {
    PrintStream standardError = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(
        new PrintStream(
            new TeeOutputStream(standardError, captured), true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(standardError);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  /**
   * The table's own operations, with snapshot commits slowed down as a remote catalog's are (each
   * lasts until a renewal waits behind it); counts the snapshot commits that failed their
   * compare-and-set and the property-only commits (the lease's). Can make the next property-only
   * commit lose, as if another writer had committed first.
   */
  private static final class SlowCatalogOperations extends ForwardingTableOperations {
    final AtomicInteger failedSnapshotCommits = new AtomicInteger();
    final AtomicInteger leaseRenewals = new AtomicInteger();
    final AtomicBoolean failNextPropertyCommit = new AtomicBoolean();

    SlowCatalogOperations(TableOperations delegate) {
      super(delegate);
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      boolean snapshotCommit = !Objects.equals(base.currentSnapshot(), metadata.currentSnapshot());
      if (!snapshotCommit) {
        if (failNextPropertyCommit.compareAndSet(true, false)) {
          throw new CommitFailedException("Another writer committed first");
        }
        delegate().commit(base, metadata);
        if (base.properties().containsKey(TableLease.OWNER_PROPERTY)
            && metadata.properties().containsKey(TableLease.OWNER_PROPERTY)) {
          leaseRenewals.incrementAndGet();
        }
        return;
      }
      Conditions.await(
          "a lease renewal waiting behind the snapshot commit",
          Duration.ofSeconds(20),
          SlowCatalogOperations::renewalWaits);
      try {
        delegate().commit(base, metadata);
      } catch (CommitFailedException e) {
        failedSnapshotCommits.incrementAndGet();
        throw e;
      }
    }

    /**
     * Whether the lock's renewal thread is blocked in a renewal, waiting for the holder's commit.
     */
    private static boolean renewalWaits() {
      return Thread.getAllStackTraces().entrySet().stream()
          .filter(thread -> thread.getKey().getName().startsWith("lakeops-lock-renewal-"))
          .filter(thread -> thread.getKey().getState() == Thread.State.WAITING)
          .anyMatch(
              thread ->
                  Arrays.stream(thread.getValue())
                      .anyMatch(
                          frame ->
                              frame.getClassName().equals(HeldTableLock.class.getName())
                                  && frame.getMethodName().equals("renew")));
    }
  }
}
