package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged plugin directory ({@code target/lakeops-plugin/}) in a real Trino 483 server
 * process: loaded by Trino's plugin class loader from {@code plugin/lakeops/}, configured by {@code
 * etc/catalog/lakeops.properties} and {@code etc/event-listener.properties}, with file-based access
 * control, queried over HTTP. Runs in {@code integration-test}, after {@code package}.
 */
class TrinoServerIT {
  private static final String JDBC_CATALOG_NAME = "lake";
  private static final int FILES = 5;
  private static final int ROWS_PER_FILE = 200;

  @TempDir Path directory;

  @Test
  void packagedPluginMaintainsATableInARealServer() throws Exception {
    Path warehouse = Files.createDirectories(directory.resolve("warehouse"));
    String url = "jdbc:sqlite:" + directory.resolve("catalog.db");
    RowFingerprint before;
    try (JdbcCatalog catalog = catalog(url, warehouse)) {
      Table table = new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 0, FILES, ROWS_PER_FILE, 1);
      before = RowFingerprint.of(table);
    }
    Path rules = directory.resolve("rules.json");
    Files.writeString(
        rules,
        """
        {"catalogs": [{"allow": "all"}],
         "schemas": [{"owner": true}],
         "procedures": [{"catalog": "lakeops", "schema": "system", "privileges": ["EXECUTE"]}],
         "tables": [{"user": "maintainer", "privileges": ["SELECT", "INSERT", "DELETE", "OWNERSHIP"]},
                    {"user": "analyst", "privileges": ["SELECT"]}]}""");
    Map<String, String> lakeops =
        Map.of(
            "connector.name", "lakeops",
            "iceberg.catalog.type", "jdbc",
            "iceberg.jdbc-catalog.driver-class", "org.sqlite.JDBC",
            "iceberg.jdbc-catalog.connection-url", url,
            "iceberg.jdbc-catalog.catalog-name", JDBC_CATALOG_NAME,
            "iceberg.jdbc-catalog.default-warehouse-dir", warehouse.toString(),
            "lakeops.memory-budget", "64MB");
    Map<String, String> eventListener =
        Map.of(
            "event-listener.name", "lakeops",
            "lakeops.telemetry.store", "sqlite:" + directory.resolve("telemetry.db"));
    Path pluginDirectory = Path.of(System.getProperty("lakeops.plugin.directory", "target/lakeops-plugin"));

    try (TrinoServerProcess server =
        TrinoServerProcess.start(
            directory.resolve("server"), pluginDirectory, Map.of("lakeops", lakeops), eventListener,
            Map.of("access-control.name", "file", "security.config-file", rules.toString()))) {
      // The event listener loaded from plugin/lakeops/ opened its store and created its tables
      assertThat(telemetryTables(directory.resolve("telemetry.db"))).contains("telemetry_event", "telemetry_column_use");
      TrinoHttpQueries analyst = new TrinoHttpQueries(server.uri(), "analyst");
      TrinoHttpQueries maintainer = new TrinoHttpQueries(server.uri(), "maintainer");
      String health = "SELECT data_files, small_data_files, records FROM lakeops.db.\"events$health\"";

      assertThat(analyst.execute(health)).containsExactly(List.of((long) FILES, (long) FILES, (long) FILES * ROWS_PER_FILE));
      assertThatThrownBy(() -> analyst.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'events')"))
          .hasMessage("PERMISSION_DENIED: Access Denied: Cannot insert into table lakeops.db.events");

      maintainer.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'events')");

      assertThat(analyst.execute(health)).containsExactly(List.of(1L, 1L, (long) FILES * ROWS_PER_FILE));
      List<List<Object>> runs =
          maintainer.execute(
              "SELECT \"user\", procedure, status, input_files, output_files, snapshot_id, summary FROM lakeops.system.runs");
      System.out.println("lakeops.system.runs: " + runs);
      System.out.println("events$health: " + maintainer.execute("SELECT * FROM lakeops.db.\"events$health\""));
      try (JdbcCatalog catalog = catalog(url, warehouse)) {
        Table table = catalog.loadTable(TableIdentifier.of("db", "events"));
        assertThat(RowFingerprint.of(table)).isEqualTo(before);
        assertThat(runs).hasSize(1);
        assertThat(runs.getFirst().subList(0, 6))
            .containsExactly("maintainer", "compact", "SUCCEEDED", (long) FILES, 1L, table.currentSnapshot().snapshotId());
      }
    }
  }

  private static List<String> telemetryTables(Path store) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
        ResultSet rows = connection.getMetaData().getTables(null, null, "telemetry_%", null)) {
      while (rows.next()) {
        tables.add(rows.getString("TABLE_NAME"));
      }
    }
    return tables;
  }

  private static JdbcCatalog catalog(String url, Path warehouse) {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.initialize(JDBC_CATALOG_NAME, Map.of("uri", url, "warehouse", warehouse.toString()));
    return catalog;
  }
}
