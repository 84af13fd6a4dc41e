package dev.lakeops.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.PostgresqlTestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The run ledger on a real SQLite file and a real PostgreSQL schema. */
class RunLedgerTest {
  private static final String POSTGRESQL_URL = PostgresqlTestServer.URL;
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

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
  void recordsStartAndEndOfRunsAndListsThemNewestFirst(String kind) throws Exception {
    AtomicLong millis = new AtomicLong(T0.toEpochMilli());
    Clock clock = new SteppingClock(millis);
    try (JdbcRunLedger ledger = JdbcRunLedger.open(location(kind), clock)) {
      RunHandle compaction =
          ledger.start(
              new RunStart(
                  "lakeops",
                  "db.events",
                  "compact",
                  "day=2026-12-01: 41 small files >= 12",
                  RunHost.SERVE,
                  false));
      millis.addAndGet(5_000);
      compaction.succeeded(
          new RunFigures(
              41, 2, 41_000_000, 40_000_000, 3, 1_000, 64_000_000, OptionalLong.of(77L), 2, 1));
      compaction.failed("ignored: already ended", RunFigures.NONE);
      millis.addAndGet(1_000);
      RunHandle expiry =
          ledger.start(
              new RunStart(
                  "lakeops",
                  "db.events",
                  "expire-snapshots",
                  RunStart.REQUESTED,
                  RunHost.CLI,
                  true));
      millis.addAndGet(1_000);
      expiry.failed("Cannot expire: table was dropped", RunFigures.NONE);
      millis.addAndGet(1_000);
      ledger.start(
          new RunStart(
              "lakeops", "db.other", "rewrite-manifests", "12 manifests", RunHost.SPARK, false));

      List<RunRecord> all = ledger.list(RunQuery.all());
      assertThat(all)
          .extracting(RunRecord::operation)
          .containsExactly("rewrite-manifests", "expire-snapshots", "compact");
      RunRecord compact = all.get(2);
      assertThat(compact.start().reason()).isEqualTo("day=2026-12-01: 41 small files >= 12");
      assertThat(compact.start().host()).isEqualTo(RunHost.SERVE);
      assertThat(compact.status()).isEqualTo(RunStatus.SUCCEEDED);
      assertThat(compact.started()).isEqualTo(T0);
      assertThat(compact.elapsed()).hasValue(java.time.Duration.ofSeconds(5));
      assertThat(compact.error()).isEmpty();
      assertThat(compact.figures())
          .isEqualTo(
              new RunFigures(
                  41, 2, 41_000_000, 40_000_000, 3, 1_000, 64_000_000, OptionalLong.of(77L), 2, 1));
      assertThat(compact.process()).isEqualTo(ProcessIdentity.current());
      RunRecord expire = all.get(1);
      assertThat(expire.status()).isEqualTo(RunStatus.FAILED);
      assertThat(expire.error()).hasValue("Cannot expire: table was dropped");
      assertThat(expire.start().dryRun()).isTrue();
      assertThat(all.get(0).status()).isEqualTo(RunStatus.RUNNING);
      assertThat(all.get(0).finished()).isEmpty();

      assertThat(ledger.list(RunQuery.all().withTable("db.events"))).hasSize(2);
      assertThat(ledger.list(RunQuery.all().withSince(T0.plusSeconds(6)))).hasSize(2);
      assertThat(ledger.list(RunQuery.all().withStatus(RunStatus.RUNNING)))
          .extracting(RunRecord::table)
          .containsExactly("db.other");
      assertThat(ledger.list(RunQuery.all().withCatalog("elsewhere"))).isEmpty();
      assertThat(ledger.list(RunQuery.all().withLimit(1))).hasSize(1);

      assertThat(ledger.abandon(all.get(0).runId(), "process 1@x ended without finishing the run"))
          .isTrue();
      assertThat(ledger.abandon(all.get(0).runId(), "twice")).isFalse();
      assertThat(ledger.list(RunQuery.all().withTable("db.other")).get(0).error())
          .hasValue("process 1@x ended without finishing the run");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void recordRunsWorkAndRecordsItsFailure(String kind) throws Exception {
    try (JdbcRunLedger ledger = JdbcRunLedger.open(location(kind), Clock.systemUTC())) {
      RunStart start =
          new RunStart("lakeops", "db.t", "compact", RunStart.REQUESTED, RunHost.TRINO, false);
      Integer result =
          ledger.record(
              start,
              () -> 7,
              value -> new RunFigures(value, 1, 0, 0, 0, 0, 0, OptionalLong.empty()));
      assertThatThrownBy(
              () ->
                  ledger.record(
                      start,
                      () -> {
                        throw new IllegalStateException("boom\nsecond line");
                      },
                      value -> RunFigures.NONE))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("boom\nsecond line");

      assertThat(result).isEqualTo(7);
      List<RunRecord> runs = ledger.list(RunQuery.all());
      assertThat(runs)
          .extracting(RunRecord::status)
          .containsExactlyInAnyOrder(RunStatus.SUCCEEDED, RunStatus.FAILED);
      assertThat(runs)
          .filteredOn(run -> run.status() == RunStatus.FAILED)
          .first()
          .extracting(RunRecord::error)
          .isEqualTo(java.util.Optional.of("boom"));
      assertThat(runs)
          .filteredOn(run -> run.status() == RunStatus.SUCCEEDED)
          .first()
          .extracting(run -> run.figures().inputFiles())
          .isEqualTo(7L);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void storesAndReadsBackWhatARunCost(String kind) throws Exception {
    RunCost cost =
        new RunCost(new ObjectRequests(31, 4, 2, 1, 3, 1), 9_000_000, 2_500_000, 7, 2.75, 1.5);
    try (JdbcRunLedger ledger = JdbcRunLedger.open(location(kind), Clock.systemUTC())) {
      ledger
          .start(new RunStart("lakeops", "db.t", "compact", RunStart.REQUESTED, RunHost.CLI, false))
          .succeeded(
              new RunFigures(12, 1, 9_000_000, 2_500_000, 0, 0, 0, OptionalLong.of(5L))
                  .withCost(cost));
      ledger
          .start(
              new RunStart(
                  "lakeops", "db.t", "expire-snapshots", RunStart.REQUESTED, RunHost.CLI, false))
          .failed("Cannot expire: gone", RunFigures.NONE.withCost(cost));

      List<RunRecord> runs = ledger.list(RunQuery.all());

      assertThat(runs).extracting(run -> run.figures().cost()).containsExactly(cost, cost);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void storesAndReadsBackHowARunWasVerified(String kind) throws Exception {
    try (JdbcRunLedger ledger = JdbcRunLedger.open(location(kind), Clock.systemUTC())) {
      ledger
          .start(new RunStart("lakeops", "db.v", "compact", RunStart.REQUESTED, RunHost.CLI, false))
          .succeeded(
              new RunFigures(6, 1, 600, 500, 0, 0, 0, OptionalLong.of(3L))
                  .withVerification("checksum", 3_000, 1));
      ledger
          .start(
              new RunStart(
                  "lakeops", "db.v", "expire-snapshots", RunStart.REQUESTED, RunHost.CLI, false))
          .succeeded(RunFigures.NONE);

      List<RunRecord> runs = ledger.list(RunQuery.all().withTable("db.v"));

      assertThat(runs)
          .extracting(
              run -> run.figures().verification(),
              run -> run.figures().verifiedRows(),
              run -> run.figures().verificationFailures())
          .containsExactlyInAnyOrder(tuple("checksum", 3_000L, 1L), tuple("", 0L, 0L));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aStoreWrittenBeforeRunCostsGainsTheirColumnsAndKeepsItsRuns(String kind) throws Exception {
    StoreLocation location = location(kind);
    try (JdbcRunLedger ledger = JdbcRunLedger.open(location, Clock.systemUTC())) {
      ledger
          .start(
              new RunStart("lakeops", "db.old", "compact", RunStart.REQUESTED, RunHost.CLI, false))
          .succeeded(new RunFigures(3, 1, 300, 200, 0, 0, 0, OptionalLong.of(1L)));
    }
    try (Connection connection = DriverManager.getConnection(location.jdbcUrl());
        Statement statement = connection.createStatement()) {
      // back to the schema of version 5, as an older LakeOps left it
      for (String column :
          List.of(
              "object_get_requests",
              "object_put_requests",
              "object_head_requests",
              "object_list_requests",
              "object_delete_requests",
              "object_other_requests",
              "object_bytes_read",
              "object_bytes_written",
              "requests_in_flight_peak",
              "requests_in_flight_mean",
              "cpu_seconds",
              "verification",
              "verified_rows",
              "verification_failures")) {
        statement.execute("ALTER TABLE lakeops_run DROP COLUMN " + column);
      }
      for (String table : List.of("lakeops_member", "lakeops_table_owner", "lakeops_suspension")) {
        statement.execute("DROP TABLE " + table);
      }
      statement.execute("DELETE FROM telemetry_schema_version WHERE version > 5");
    }
    RunCost cost = new RunCost(new ObjectRequests(2, 1, 0, 0, 0, 0), 400, 100, 1, 0.5, 0.25);

    try (JdbcRunLedger ledger = JdbcRunLedger.open(location, Clock.systemUTC())) {
      ledger
          .start(
              new RunStart("lakeops", "db.new", "compact", RunStart.REQUESTED, RunHost.CLI, false))
          .succeeded(new RunFigures(2, 1, 400, 100, 0, 0, 0, OptionalLong.of(2L)).withCost(cost));

      assertThat(ledger.list(RunQuery.all().withTable("db.old")))
          .singleElement()
          .satisfies(
              run -> {
                assertThat(run.figures().inputFiles()).isEqualTo(3);
                assertThat(run.figures().cost()).isEqualTo(RunCost.NONE);
              });
      assertThat(ledger.list(RunQuery.all().withTable("db.new")))
          .singleElement()
          .extracting(run -> run.figures().cost())
          .isEqualTo(cost);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sqlite"})
  void aClosedLedgerWarnsInsteadOfFailingTheRun(String kind) throws Exception {
    JdbcRunLedger ledger = JdbcRunLedger.open(location(kind), Clock.systemUTC());
    RunHandle run =
        ledger.start(
            new RunStart("lakeops", "db.t", "compact", RunStart.REQUESTED, RunHost.CLI, false));
    ledger.close();
    java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
    LedgerWarnings.redirectTo(
        new java.io.PrintStream(warnings, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      run.succeeded(RunFigures.NONE);
    } finally {
      LedgerWarnings.redirectTo(null);
    }
    assertThat(warnings.toString(java.nio.charset.StandardCharsets.UTF_8))
        .startsWith("lakeops: warning: Cannot record the end of compact on db.t: the run ledger ")
        .contains("is closed");
    assertThatThrownBy(() -> JdbcRunLedger.open("mysql://nowhere"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unsupported telemetry store 'mysql://nowhere'");
  }

  private StoreLocation location(String kind) throws Exception {
    if (kind.equals("sqlite")) {
      return StoreLocation.sqliteFile(directory.resolve("lakeops.db"));
    }
    PostgresqlTestServer.assumeReachable();
    schema = "lakeops_ledger_test_" + UUID.randomUUID().toString().replace("-", "");
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

  /** A clock whose time the test moves. */
  private static final class SteppingClock extends Clock {
    private final AtomicLong millis;

    SteppingClock(AtomicLong millis) {
      this.millis = millis;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis.get());
    }
  }
}
