package dev.lakeops.telemetry.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.PostgresqlTestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs against the real PostgreSQL named by the {@code telemetry.test.postgresql.url} system
 * property ({@link PostgresqlTestServer}); skipped, saying why and how to start it, when that
 * server is unreachable (CI starts it).
 */
class PostgresqlTelemetryStoreTest extends AbstractTelemetryStoreTest {
  private static final String SERVER_URL = PostgresqlTestServer.URL;

  private String schema;

  @Override
  StoreLocation newLocation() throws Exception {
    // Per test, not per class: Surefire reports a class-level skip as no tests at all
    PostgresqlTestServer.assumeReachable();
    schema = "lakeops_telemetry_test_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE SCHEMA " + schema);
    String separator = SERVER_URL.contains("?") ? "&" : "?";
    return StoreLocation.parse(SERVER_URL + separator + "currentSchema=" + schema);
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  @Test
  void createsTablesInTheConfiguredSchemaOnly() throws Exception {
    try (Connection connection = DriverManager.getConnection(SERVER_URL);
        PreparedStatement query =
            connection.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                    + " ORDER BY table_name")) {
      query.setString(1, schema);
      List<String> tables = new ArrayList<>();
      try (ResultSet result = query.executeQuery()) {
        while (result.next()) {
          tables.add(result.getString(1));
        }
      }
      assertThat(tables)
          .containsExactly(
              "lakeops_health_sample",
              "lakeops_member",
              "lakeops_run",
              "lakeops_run_plan",
              "lakeops_suspension",
              "lakeops_table_owner",
              "telemetry_column_use",
              "telemetry_event",
              "telemetry_schema_version");
    }
  }

  private static void execute(String sql) throws Exception {
    try (Connection connection = DriverManager.getConnection(SERVER_URL);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
