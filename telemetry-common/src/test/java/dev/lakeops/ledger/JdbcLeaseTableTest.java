package dev.lakeops.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.PostgresqlTestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Table leases as rows of a real SQLite file and a real PostgreSQL schema. */
class JdbcLeaseTableTest {
  private static final String POSTGRESQL_URL = PostgresqlTestServer.URL;
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final String TABLE = "s3://bucket/warehouse/db/events";

  @TempDir Path directory;

  private String schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void liveLeaseRefusesOthersUntilItExpires(String kind) throws Exception {
    StoreLocation location = location(kind);
    try (JdbcLeaseTable first = JdbcLeaseTable.open(location);
        JdbcLeaseTable second = JdbcLeaseTable.open(location)) {
      assertThat(first.holder(TABLE)).isEmpty();

      assertThat(first.take(TABLE, "cli@a", T0.plusSeconds(300), T0)).isTrue();
      assertThat(second.take(TABLE, "spark@b", T0.plusSeconds(400), T0.plusSeconds(299))).isFalse();
      assertThat(second.holder(TABLE)).contains(new LeaseRow("cli@a", T0.plusSeconds(300)));
      // another table is another lease
      assertThat(second.take(TABLE + "_other", "spark@b", T0.plusSeconds(400), T0)).isTrue();

      // the holder died: at its expiry the lease is free to take
      assertThat(second.take(TABLE, "spark@b", T0.plusSeconds(600), T0.plusSeconds(300))).isTrue();
      assertThat(first.holder(TABLE)).contains(new LeaseRow("spark@b", T0.plusSeconds(600)));
      assertThat(first.renew(TABLE, "cli@a", T0.plusSeconds(700))).isFalse();
      assertThat(first.release(TABLE, "cli@a")).isFalse();
      assertThat(first.holder(TABLE)).contains(new LeaseRow("spark@b", T0.plusSeconds(600)));

      assertThat(second.renew(TABLE, "spark@b", T0.plusSeconds(900))).isTrue();
      assertThat(first.holder(TABLE)).contains(new LeaseRow("spark@b", T0.plusSeconds(900)));
      assertThat(second.release(TABLE, "spark@b")).isTrue();
      assertThat(first.holder(TABLE)).isEmpty();
      assertThat(first.take(TABLE, "cli@a", T0.plusSeconds(1000), T0.plusSeconds(700))).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void ofManyConcurrentTakersExactlyOneWins(String kind) throws Exception {
    StoreLocation location = location(kind);
    int takers = 6;
    ExecutorService threads = Executors.newFixedThreadPool(takers);
    List<JdbcLeaseTable> tables = new ArrayList<>();
    try {
      for (int taker = 0; taker < takers; taker++) {
        tables.add(JdbcLeaseTable.open(location));
      }
      // an expired lease is there already: every taker may replace it, one of them does
      tables.get(0).take(TABLE, "dead@host", T0, T0.minusSeconds(1));
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> outcomes = new ArrayList<>();
      for (int taker = 0; taker < takers; taker++) {
        JdbcLeaseTable table = tables.get(taker);
        String owner = "taker-" + taker;
        outcomes.add(
            threads.submit(
                () -> {
                  start.await();
                  return table.take(TABLE, owner, T0.plusSeconds(300), T0.plusSeconds(1));
                }));
      }
      start.countDown();
      List<String> winners = new ArrayList<>();
      for (int taker = 0; taker < takers; taker++) {
        if (outcomes.get(taker).get(30, TimeUnit.SECONDS)) {
          winners.add("taker-" + taker);
        }
      }
      assertThat(winners).hasSize(1);
      Optional<LeaseRow> holder = tables.get(0).holder(TABLE);
      assertThat(holder).map(LeaseRow::owner).contains(winners.get(0));
    } finally {
      threads.shutdownNow();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      tables.forEach(JdbcLeaseTable::close);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void leaseTableSitsBesideTheRunLedger(String kind) throws Exception {
    StoreLocation location = location(kind);
    try (JdbcRunLedger ledger =
            JdbcRunLedger.open(location, java.time.Clock.fixed(T0, java.time.ZoneOffset.UTC));
        JdbcLeaseTable leases = JdbcLeaseTable.open(location)) {
      assertThat(ledger.storeLocation()).contains(location);
      assertThat(leases.take(TABLE, "serve@a", T0.plus(Duration.ofMinutes(5)), T0)).isTrue();
      ledger.start(
          new RunStart("lakeops", "db.events", "compact", "requested", RunHost.CLI, false));
      assertThat(ledger.list(RunQuery.all())).hasSize(1);
      assertThat(leases.holder(TABLE)).map(LeaseRow::owner).contains("serve@a");
    }
    assertThat(RunLedger.disabled().storeLocation()).isEmpty();
  }

  private StoreLocation location(String kind) throws Exception {
    if (kind.equals("sqlite")) {
      return StoreLocation.sqliteFile(directory.resolve("lakeops.db"));
    }
    PostgresqlTestServer.assumeReachable();
    schema = "lakeops_lease_test_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE SCHEMA " + schema);
    return StoreLocation.parse(
        POSTGRESQL_URL + (POSTGRESQL_URL.contains("?") ? "&" : "?") + "currentSchema=" + schema);
  }

  private static void execute(String sql) throws Exception {
    try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
