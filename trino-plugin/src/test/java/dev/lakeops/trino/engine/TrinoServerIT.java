package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The release zip of the plugin ({@code target/lakeops-trino-plugin-<version>.zip}, the packaged
 * plugin directory {@code target/lakeops-plugin/} under one directory of its own) in a real Trino
 * 483 server process started as a user starts one: {@code etc/jvm.config} holds exactly the options
 * of Trino's deployment guide (and no {@code --add-opens}), the zip is unzipped into {@code
 * plugin/}, configured by {@code etc/catalog/lakeops.properties} and {@code
 * etc/event-listener.properties}, with file-based access control, queried over HTTP. One server for
 * the class; runs in {@code integration-test}, after {@code package}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrinoServerIT {
  private static final String JDBC_CATALOG_NAME = "lake";
  private static final int FILES = 5;
  private static final int ROWS_PER_FILE = 200;

  private Path directory;
  private Path warehouse;
  private String url;
  private List<String> jvmConfig;
  private TrinoServerProcess server;
  private TrinoHttpQueries maintainer;
  private TrinoHttpQueries analyst;

  @BeforeAll
  void startServer() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-server");
    warehouse = Files.createDirectories(directory.resolve("warehouse"));
    url = "jdbc:sqlite:" + directory.resolve("catalog.db");
    try (JdbcCatalog catalog = catalog()) {
      DemoTableGenerator tables = new DemoTableGenerator(catalog);
      tables.create(TableIdentifier.of("db", "events"), 2, 0, FILES, ROWS_PER_FILE, 1);
      tables.create(TableIdentifier.of("db", "sorted"), 2, 1, 6, 500, 1);
      // big enough that a 16MB budget spills sorted runs to disk
      tables.create(TableIdentifier.of("db", "zordered"), 2, 1, 20, 6000, 5);
      tables.create(TableIdentifier.of("db", "damaged"), 2, 1, 6, 500, 1);
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
            "connector.name",
            "lakeops",
            "iceberg.catalog.type",
            "jdbc",
            "iceberg.jdbc-catalog.driver-class",
            "org.sqlite.JDBC",
            "iceberg.jdbc-catalog.connection-url",
            url,
            "iceberg.jdbc-catalog.catalog-name",
            JDBC_CATALOG_NAME,
            "iceberg.jdbc-catalog.default-warehouse-dir",
            warehouse.toString(),
            "lakeops.memory-budget",
            "64MB",
            "lakeops.spill-directory",
            Files.createDirectories(directory.resolve("spill")).toString());
    Map<String, String> eventListener =
        Map.of(
            "event-listener.name",
            "lakeops",
            "lakeops.telemetry.store",
            "sqlite:" + directory.resolve("telemetry.db"));
    // the release zip, unzipped into plugin/ as docs/trino.md's install section says
    Path pluginZip = pluginZip();
    jvmConfig = documentedJvmConfig();
    server =
        TrinoServerProcess.start(
            directory.resolve("server"),
            pluginZip,
            jvmConfig,
            Map.of("lakeops", lakeops),
            eventListener,
            Map.of("access-control.name", "file", "security.config-file", rules.toString()));
    maintainer = new TrinoHttpQueries(server.uri(), "maintainer");
    analyst = new TrinoHttpQueries(server.uri(), "analyst");
  }

  @AfterAll
  void stopServer() throws IOException {
    if (server != null) {
      // what the JVM itself warned about, for docs/trino.md's JVM options section
      server
          .log()
          .lines()
          .filter(line -> line.startsWith("WARNING"))
          .forEach(line -> System.out.println("server JVM: " + line));
      server.close();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test
  void theServerRunsWithTheDeploymentGuidesJvmOptionsOnly() throws IOException {
    List<String> options =
        TrinoServerProcess.jvmOptions(directory.resolve("server/etc/jvm.config"));
    assertThat(options)
        .isEqualTo(jvmConfig.stream().filter(line -> !line.startsWith("#")).toList());
    assertThat(options)
        .noneMatch(
            option ->
                option.startsWith("--add-opens")
                    || option.startsWith("--sun-misc-unsafe-memory-access"));
    Path installed = directory.resolve("server/plugin").resolve(pluginDirectoryName());
    assertThat(installed).isDirectory().isNotEmptyDirectory();
    assertThat(Files.isSymbolicLink(installed)).isFalse();
  }

  @Test
  void releaseZipHoldsThePluginDirectoryUnderOneDirectoryOfItsOwn() throws IOException {
    Path unzipped = Files.createDirectories(directory.resolve("unzipped"));
    TrinoServerProcess.unzip(pluginZip(), unzipped);
    try (Stream<Path> top = Files.list(unzipped)) {
      assertThat(top.map(path -> path.getFileName().toString()))
          .containsExactly(pluginDirectoryName());
    }
    Path pluginDirectory =
        Path.of(System.getProperty("lakeops.plugin.directory", "target/lakeops-plugin"));
    try (Stream<Path> zipped = Files.list(unzipped.resolve(pluginDirectoryName()));
        Stream<Path> packaged = Files.list(pluginDirectory)) {
      List<String> packagedJars =
          packaged
              .map(path -> path.getFileName().toString())
              .filter(name -> name.endsWith(".jar"))
              .toList();
      assertThat(zipped.map(path -> path.getFileName().toString()))
          .containsExactlyInAnyOrderElementsOf(packagedJars)
          .contains("lakeops-trino-plugin-0.1.0-SNAPSHOT.jar")
          .noneMatch(name -> name.startsWith("trino-spi-") || name.startsWith("slice-"));
    }
  }

  private static Path pluginZip() {
    return Path.of(
        System.getProperty("lakeops.plugin.zip", "target/lakeops-trino-plugin-0.1.0-SNAPSHOT.zip"));
  }

  /** The directory the zip unpacks to, as Trino's own plugin zips: artifact and version. */
  private static String pluginDirectoryName() {
    String zip = pluginZip().getFileName().toString();
    return zip.substring(0, zip.length() - ".zip".length());
  }

  @Test
  void packagedPluginMaintainsATableInARealServer() throws Exception {
    RowFingerprint before = fingerprint("events");
    // The event listener loaded from plugin/lakeops/ opened its store and created its tables
    assertThat(telemetryTables(directory.resolve("telemetry.db")))
        .contains("telemetry_event", "telemetry_column_use");
    String health =
        "SELECT data_files, small_data_files, records FROM lakeops.db.\"events$health\"";

    assertThat(analyst.execute(health))
        .containsExactly(List.of((long) FILES, (long) FILES, (long) FILES * ROWS_PER_FILE));
    assertThatThrownBy(
            () ->
                analyst.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'events')"))
        .hasMessage("PERMISSION_DENIED: Access Denied: Cannot insert into table lakeops.db.events");

    maintainer.execute("CALL lakeops.system.compact(schema_name => 'db', table_name => 'events')");

    assertThat(analyst.execute(health))
        .containsExactly(List.of(1L, 1L, (long) FILES * ROWS_PER_FILE));
    List<List<Object>> runs = runs("events");
    System.out.println("lakeops.system.runs: " + runs);
    try (JdbcCatalog catalog = catalog()) {
      Table table = catalog.loadTable(TableIdentifier.of("db", "events"));
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
      assertThat(runs).hasSize(1);
      assertThat(runs.getFirst().subList(0, 6))
          .containsExactly(
              "maintainer",
              "compact",
              "SUCCEEDED",
              (long) FILES,
              1L,
              table.currentSnapshot().snapshotId());
    }
  }

  @Test
  void sortRunsOnTheDocumentedJvmOptions() throws Exception {
    RowFingerprint before = fingerprint("sorted");

    maintainer.execute(
        "CALL lakeops.system.compact(schema_name => 'db', table_name => 'sorted', strategy => 'sort', sort_order => 'event_id DESC')");

    try (JdbcCatalog catalog = catalog()) {
      Table table = catalog.loadTable(TableIdentifier.of("db", "sorted"));
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
      assertThat(eventIdsInFileOrder(table))
          .hasSize(3000)
          .isSortedAccordingTo(Comparator.reverseOrder());
    }
    assertThat(runs("sorted"))
        .singleElement()
        .satisfies(
            run -> assertThat(run.subList(1, 4)).containsExactly("compact", "SUCCEEDED", 6L));
    assertThat(server.log()).doesNotContain("Memory was leaked", "DirectByteBuffer");
  }

  @Test
  void zorderSpillingToDiskRunsOnTheDocumentedJvmOptions() throws Exception {
    RowFingerprint before = fingerprint("zordered");

    maintainer.execute(
        """
        CALL lakeops.system.compact(schema_name => 'db', table_name => 'zordered', strategy => 'zorder',
          zorder_columns => ARRAY['user_id', 'ts'], memory_budget => '16MB')""");

    try (JdbcCatalog catalog = catalog()) {
      Table table = catalog.loadTable(TableIdentifier.of("db", "zordered"));
      assertThat(RowFingerprint.of(table)).isEqualTo(before);
    }
    List<List<Object>> runs = runs("zordered");
    System.out.println("zorder run: " + runs);
    assertThat(runs)
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.subList(1, 4)).containsExactly("compact", "SUCCEEDED", 20L);
              assertThat((String) run.get(6)).startsWith("zorder: ").contains("spilled");
            });
    assertThat(server.log()).doesNotContain("Memory was leaked", "DirectByteBuffer");
  }

  @Test
  void aCallThatFailsMidSortLeavesTheTableAndNoLeakedMemory() throws Exception {
    long snapshotBefore;
    String damagedLocation;
    try (JdbcCatalog catalog = catalog()) {
      Table table = catalog.loadTable(TableIdentifier.of("db", "damaged"));
      snapshotBefore = table.currentSnapshot().snapshotId();
      List<DataFile> files = new ArrayList<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        tasks.forEach(task -> files.add(task.file()));
      }
      damagedLocation = files.getLast().location();
      Files.write(Path.of(damagedLocation), new byte[] {'P', 'A', 'R', '1', 0, 0, 0, 0});
    }

    assertThatThrownBy(
            () ->
                maintainer.execute(
                    "CALL lakeops.system.compact(schema_name => 'db', table_name => 'damaged', strategy => 'sort', sort_order => 'event_id DESC')"))
        .hasMessageStartingWith(
            "LAKEOPS_FILESYSTEM_ERROR: compact of db.damaged failed: Cannot read data file "
                + damagedLocation);

    try (JdbcCatalog catalog = catalog()) {
      assertThat(
              catalog.loadTable(TableIdentifier.of("db", "damaged")).currentSnapshot().snapshotId())
          .isEqualTo(snapshotBefore);
    }
    assertThat(server.log()).doesNotContain("Memory was leaked");
    try (Stream<Path> left = Files.list(directory.resolve("spill"))) {
      assertThat(left).isEmpty();
    }
  }

  private List<List<Object>> runs(String table) {
    return maintainer.execute(
        "SELECT \"user\", procedure, status, input_files, output_files, snapshot_id, summary FROM lakeops.system.runs"
            + " WHERE schema_name = 'db' AND table_name = '"
            + table
            + "' ORDER BY started");
  }

  private RowFingerprint fingerprint(String name) throws IOException {
    try (JdbcCatalog catalog = catalog()) {
      return RowFingerprint.of(catalog.loadTable(TableIdentifier.of("db", name)));
    }
  }

  /** The event ids of the table's rows, file by file, each file in its own row order. */
  private static List<Long> eventIdsInFileOrder(Table table) throws IOException {
    List<Long> ids = new ArrayList<>();
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).select("event_id").build()) {
      rows.forEach(row -> ids.add((Long) row.getField("event_id")));
    }
    return ids;
  }

  private static List<String> documentedJvmConfig() throws IOException {
    try (InputStream in = TrinoServerIT.class.getResourceAsStream("jvm.config")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
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

  private JdbcCatalog catalog() {
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.initialize(JDBC_CATALOG_NAME, Map.of("uri", url, "warehouse", warehouse.toString()));
    return catalog;
  }
}
