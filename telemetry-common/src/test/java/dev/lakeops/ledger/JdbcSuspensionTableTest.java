package dev.lakeops.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.PostgresqlTestServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Failures in a row in a real SQLite file and a real PostgreSQL schema. */
class JdbcSuspensionTableTest {
  private static final String POSTGRESQL_URL = PostgresqlTestServer.URL;
  private static final Instant T0 = Instant.parse("2026-12-05T04:00:00Z");

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
  void failuresCountUpSuspendAndAreClearedBySuccessOrResume(String kind) throws Exception {
    try (JdbcSuspensionTable suspensions = JdbcSuspensionTable.open(location(kind))) {
      assertThat(suspensions.recordFailure("lake", "db.t", "compact", "first")).isEqualTo(1);
      assertThat(suspensions.recordFailure("lake", "db.t", "compact", "second")).isEqualTo(2);
      assertThat(suspensions.recordFailure("lake", "db.t", "expire-snapshots", "x")).isEqualTo(1);
      assertThat(suspensions.recordFailure("lake", "db.t", "compact", "third")).isEqualTo(3);
      suspensions.suspend("lake", "db.t", "compact", T0, OptionalLong.of(42), "f00d");

      assertThat(suspensions.list("lake"))
          .containsExactly(
              new SuspensionRow(
                  "lake",
                  "db.t",
                  "compact",
                  3,
                  "third",
                  Optional.of(T0),
                  OptionalLong.of(42),
                  Optional.of("f00d")),
              new SuspensionRow(
                  "lake",
                  "db.t",
                  "expire-snapshots",
                  1,
                  "x",
                  Optional.empty(),
                  OptionalLong.empty(),
                  Optional.empty()));
      assertThat(suspensions.list("other")).isEmpty();

      suspensions.clear("lake", "db.t", "expire-snapshots");
      assertThat(suspensions.list("lake"))
          .extracting(SuspensionRow::operation)
          .containsExactly("compact");
      assertThat(suspensions.clearTable("lake", "db.t"))
          .singleElement()
          .satisfies(row -> assertThat(row.suspended()).isTrue());
      assertThat(suspensions.list("lake")).isEmpty();
      assertThat(suspensions.recordFailure("lake", "db.t", "compact", "again")).isEqualTo(1);
    }
  }

  private StoreLocation location(String kind) throws Exception {
    if (kind.equals("sqlite")) {
      return StoreLocation.sqliteFile(directory.resolve("lakeops.db"));
    }
    PostgresqlTestServer.assumeReachable();
    schema = "lakeops_suspension_test_" + UUID.randomUUID().toString().replace("-", "");
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
