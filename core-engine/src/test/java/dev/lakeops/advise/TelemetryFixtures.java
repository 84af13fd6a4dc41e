package dev.lakeops.advise;

import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Records query telemetry into real stores for the advise tests. */
public final class TelemetryFixtures {
  /** The PostgreSQL server the tests need: they fail, never skip, when it is unreachable. */
  public static final String POSTGRESQL_URL =
      System.getProperty(
          "telemetry.test.postgresql.url", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");

  private TelemetryFixtures() {}

  /**
   * Stores {@code count} queries on {@code table}, each filtering {@code column} by {@code kind},
   * just now.
   */
  public static void recordFilters(
      String storeConfiguration, TableName table, String column, PredicateKind kind, int count) {
    try (TelemetryStore store = TelemetryStoreFactory.open(storeConfiguration)) {
      List<TelemetryEvent> events = new ArrayList<>();
      for (int query = 0; query < count; query++) {
        events.add(
            new TelemetryEvent(
                "trino",
                table,
                "query-" + UUID.randomUUID(),
                Instant.now().minusSeconds(query),
                List.of(
                    ColumnReference.filter(column, kind),
                    ColumnReference.of("amount", dev.lakeops.telemetry.event.Clause.PROJECTION)),
                ScanVolume.unknown()));
      }
      store.append(events);
    }
  }

  /** A fresh PostgreSQL schema for one test, dropped (with its tables) on close. */
  public static final class PostgresqlSchema implements AutoCloseable {
    private final String name =
        "lakeops_advise_test_" + UUID.randomUUID().toString().replace("-", "");

    public PostgresqlSchema() throws SQLException {
      execute("CREATE SCHEMA " + name);
    }

    /** The store configuration string of this schema. */
    public String storeConfiguration() {
      return POSTGRESQL_URL + (POSTGRESQL_URL.contains("?") ? "&" : "?") + "currentSchema=" + name;
    }

    @Override
    public void close() throws SQLException {
      execute("DROP SCHEMA " + name + " CASCADE");
    }

    private static void execute(String sql) throws SQLException {
      try (Connection connection = DriverManager.getConnection(POSTGRESQL_URL);
          Statement statement = connection.createStatement()) {
        statement.execute(sql);
      }
    }
  }
}
