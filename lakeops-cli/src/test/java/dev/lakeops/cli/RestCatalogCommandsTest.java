package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.RestCatalogTestServer;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against Iceberg's own REST catalog server, table files in an S3-compatible
 * object store: {@code -C type=rest -C uri=... -C io-impl=...S3FileIO -C s3.endpoint=...}.
 */
class RestCatalogCommandsTest {
  private static final String CATALOG_NAME = "lake";

  @TempDir Path temp;
  private S3TestServer objectStore;
  private RestCatalogTestServer restCatalog;
  private RESTCatalog catalog;

  @BeforeEach
  void startServers() throws Exception {
    objectStore = S3TestServer.start(temp.resolve("s3"));
    restCatalog = RestCatalogTestServer.start(objectStore, temp.resolve("rest-catalog"));
    catalog = connect();
  }

  @AfterEach
  void stopServers() throws Exception {
    try (S3TestServer store = objectStore;
        RestCatalogTestServer server = restCatalog;
        RESTCatalog client = catalog) {
      // closed in reverse order: the client, the REST server, the object store
    }
  }

  @Test
  void compactsAFragmentedTableThroughTheRestCatalog() throws Exception {
    TableIdentifier events = TableIdentifier.of("db", "events");
    Table table = new DemoTableGenerator(catalog).create(events, 2, 2, 12, 300, 4);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(table.location()).isEqualTo(objectStore.location("warehouse/db/events"));

    CommandLineRun run = lakeops("compact", "db.events", "--strategy", "binpack", "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.stdout());
    assertThat(report.get("input_files").asInt()).isEqualTo(12);
    assertThat(report.get("output_files").asInt()).isEqualTo(2);
    try (RESTCatalog reader = connect()) {
      Table compacted = reader.loadTable(events);
      assertThat(compacted.currentSnapshot().snapshotId())
          .isEqualTo(report.get("snapshot_id").asLong());
      assertThat(compacted.currentSnapshot().operation()).isEqualTo("replace");
      assertThat(dataFiles(compacted)).hasSize(2).allSatisfy(this::assertInBucket);
      assertThat(RowFingerprint.of(compacted)).isEqualTo(before);
    }
  }

  @Test
  void compactsWithStorageCredentialsTheCatalogVends() throws Exception {
    TableIdentifier events = TableIdentifier.of("db", "vended");
    try (RestCatalogTestServer vending =
        RestCatalogTestServer.startVendingCredentials(objectStore, temp.resolve("vending"))) {
      Map<String, String> withoutKeys = new LinkedHashMap<>(vending.catalogProperties());
      withoutKeys.remove("s3.access-key-id");
      withoutKeys.remove("s3.secret-access-key");
      RowFingerprint before;
      try (RESTCatalog writer =
          (RESTCatalog) CatalogConnector.connect(new CatalogSettings(CATALOG_NAME, withoutKeys))) {
        before = RowFingerprint.of(new DemoTableGenerator(writer).create(events, 2, 1, 6, 50, 3));
      }
      List<String> arguments = new ArrayList<>(List.of("compact", "db.vended", "--json"));
      arguments.addAll(List.of("--store", "sqlite:" + temp.resolve("ledger.db")));
      withoutKeys.forEach((key, value) -> arguments.addAll(List.of("-C", key + "=" + value)));

      CommandLineRun run = CommandLineRun.of(arguments.toArray(String[]::new));

      assertThat(run.exitCode()).as(run.stderr()).isZero();
      assertThat(arguments).noneMatch(argument -> argument.contains(S3TestServer.SECRET_KEY));
      JsonNode report = new ObjectMapper().readTree(run.stdout());
      assertThat(report.get("input_files").asInt()).isEqualTo(6);
      assertThat(report.get("output_files").asInt()).isEqualTo(1);
      try (RESTCatalog reader =
          (RESTCatalog)
              CatalogConnector.connect(
                  new CatalogSettings(CATALOG_NAME, vending.catalogProperties()))) {
        Table compacted = reader.loadTable(events);
        assertThat(compacted.location()).startsWith(objectStore.location("warehouse/"));
        assertThat(compacted.currentSnapshot().snapshotId())
            .isEqualTo(report.get("snapshot_id").asLong());
        assertThat(RowFingerprint.of(compacted)).isEqualTo(before);
      }
    }
  }

  @Test
  void expiredSnapshotsFilesLeaveTheBucket() throws Exception {
    TableIdentifier events = TableIdentifier.of("db", "expiring");
    Table table = new DemoTableGenerator(catalog).create(events, 2, 2, 12, 300, 4);
    Set<String> writtenFiles = dataFiles(table);
    CommandLineRun compaction = lakeops("compact", "db.expiring", "--json");
    assertThat(compaction.exitCode()).as(compaction.stderr()).isZero();
    table.refresh();
    RowFingerprint rows = RowFingerprint.of(table);
    Set<String> compactedFiles = dataFiles(table);
    Set<String> expiringMetadata = metadataOfSnapshotsBefore(table);
    assertThat(writtenFiles).allSatisfy(this::assertInBucket);
    assertThat(expiringMetadata).hasSize(6).allSatisfy(this::assertInBucket);

    CommandLineRun run =
        lakeops(
            "expire-snapshots",
            "db.expiring",
            "--older-than",
            "0s",
            "--retain-last",
            "1",
            "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.stdout());
    assertThat(report.get("expired_snapshot_ids")).hasSize(3);
    assertThat(report.get("deleted_data_files").asInt()).isEqualTo(12);
    assertThat(report.get("deleted_manifests").asInt()).isEqualTo(3);
    assertThat(report.get("deleted_manifest_lists").asInt()).isEqualTo(3);
    assertThat(report.get("failed_deletes").asInt()).isZero();
    assertThat(writtenFiles)
        .allSatisfy(location -> assertThat(objectPath(location)).as(location).doesNotExist());
    assertThat(expiringMetadata)
        .allSatisfy(location -> assertThat(objectPath(location)).as(location).doesNotExist());
    try (RESTCatalog reader = connect()) {
      Table expired = reader.loadTable(events);
      assertThat(expired.snapshots()).hasSize(1);
      assertThat(dataFiles(expired)).isEqualTo(compactedFiles).allSatisfy(this::assertInBucket);
      assertThat(RowFingerprint.of(expired)).isEqualTo(rows);
    }
  }

  @Test
  void removesAStrayOldObjectAndKeepsEveryReferencedFile() throws Exception {
    TableIdentifier events = TableIdentifier.of("db", "orphans");
    Table table = new DemoTableGenerator(catalog).create(events, 2, 2, 6, 100, 3);
    RowFingerprint rows = RowFingerprint.of(table);
    String stray = table.location() + "/data/day=2026-11-01/lost-by-a-failed-writer.parquet";
    String fresh = table.location() + "/data/day=2026-11-01/being-written-now.parquet";
    put(table, stray);
    put(table, fresh);
    Set<Path> objectsBefore = objectsUnder("warehouse/db/orphans");
    Instant fiveDaysAgo = Instant.now().minus(Duration.ofDays(5));
    for (Path object : objectsBefore) {
      Files.setLastModifiedTime(object, FileTime.from(fiveDaysAgo));
    }
    Files.setLastModifiedTime(objectPath(fresh), FileTime.from(Instant.now()));

    CommandLineRun run = lakeops("remove-orphan-files", "db.orphans", "--json");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode report = new ObjectMapper().readTree(run.stdout());
    assertThat(report.get("listed_files").asInt()).isEqualTo(objectsBefore.size());
    assertThat(report.get("too_new_files").asInt()).isEqualTo(1);
    assertThat(report.get("orphan_files")).extracting(JsonNode::asText).containsExactly(stray);
    assertThat(report.get("deleted_files").asInt()).isEqualTo(1);
    Set<Path> expectedLeft = new HashSet<>(objectsBefore);
    expectedLeft.remove(objectPath(stray));
    assertThat(objectsUnder("warehouse/db/orphans")).isEqualTo(expectedLeft);
    try (RESTCatalog reader = connect()) {
      assertThat(RowFingerprint.of(reader.loadTable(events))).isEqualTo(rows);
    }
  }

  @Test
  void serveOnceCompactsATableOfTheRestCatalog() throws Exception {
    TableIdentifier fragmented = TableIdentifier.of("db", "fragmented");
    Table table = new DemoTableGenerator(catalog).create(fragmented, 2, 1, 14, 40, 7);
    RowFingerprint rows = RowFingerprint.of(table);
    Table healthy =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "healthy"), 2, 1, 2, 40, 2);
    long healthySnapshot = healthy.currentSnapshot().snapshotId();
    Path catalogConfig = temp.resolve("catalog.properties");
    Files.write(catalogConfig, catalogConfigLines());
    Path policy = temp.resolve("policy.yaml");
    Files.writeString(
        policy, "catalog:\n  max-concurrent-tables: 1\n  compact.min-small-files: 10\n");

    CommandLineRun serve =
        CommandLineRun.of(
            "serve",
            "--catalog-config",
            catalogConfig.toString(),
            "--policy",
            policy.toString(),
            "--store",
            "sqlite:" + temp.resolve("ledger.db"),
            "--once");

    assertThat(serve.exitCode()).as(serve.stderr()).isZero();
    assertThat(serve.stderr())
        .contains("started on catalog " + CATALOG_NAME)
        .contains("watching 2 table(s)")
        .contains("db.fragmented compact succeeded")
        .contains("14 -> 1 files")
        .doesNotContain("db.healthy compact")
        .contains("lakeops serve: stopped");
    try (RESTCatalog reader = connect()) {
      Table compacted = reader.loadTable(fragmented);
      assertThat(compacted.currentSnapshot().operation()).isEqualTo("replace");
      assertThat(dataFiles(compacted)).hasSize(1).allSatisfy(this::assertInBucket);
      assertThat(RowFingerprint.of(compacted)).isEqualTo(rows);
      assertThat(
              reader.loadTable(TableIdentifier.of("db", "healthy")).currentSnapshot().snapshotId())
          .isEqualTo(healthySnapshot);
    }
  }

  @Test
  void aTableTheRestCatalogDoesNotHaveIsOneLineError() {
    new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 1, 1, 10, 1);

    CommandLineRun run = lakeops("compact", "db.missing");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(errorLines(run))
        .containsExactly("lakeops: error: Table 'db.missing' not found in catalog 'lake'");
  }

  @Test
  void anUnreachableRestCatalogIsOneLineErrorNamingItsUri() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    String uri = "http://127.0.0.1:" + closedPort;

    CommandLineRun run =
        CommandLineRun.of(
            "compact", "db.events", "-C", "type=rest", "-C", "uri=" + uri, "--store", "none");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(errorLines(run))
        .containsExactly(
            "lakeops: error: Cannot reach catalog 'lakeops' (rest at "
                + uri
                + "): Connect to "
                + uri
                + " failed: Connection refused — check the -C/--catalog-config properties");
  }

  /** What the command line printed as errors, leaving out library log lines. */
  private static List<String> errorLines(CommandLineRun run) {
    return run.stderr().lines().filter(line -> !line.startsWith("[")).toList();
  }

  /** The command line with this catalog's flags appended: {@code -C name=lake -C type=rest ...}. */
  private CommandLineRun lakeops(String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(List.of("--store", "sqlite:" + temp.resolve("ledger.db")));
    all.addAll(List.of("-C", "name=" + CATALOG_NAME));
    restCatalog
        .catalogProperties()
        .forEach((key, value) -> all.addAll(List.of("-C", key + "=" + value)));
    return CommandLineRun.of(all.toArray(String[]::new));
  }

  private List<String> catalogConfigLines() {
    List<String> lines = new ArrayList<>();
    lines.add("name=" + CATALOG_NAME);
    restCatalog.catalogProperties().forEach((key, value) -> lines.add(key + "=" + value));
    return lines;
  }

  private RESTCatalog connect() {
    return (RESTCatalog)
        CatalogConnector.connect(
            new CatalogSettings(CATALOG_NAME, restCatalog.catalogProperties()));
  }

  private static void put(Table table, String location) throws IOException {
    try (OutputStream out = table.io().newOutputFile(location).create()) {
      out.write("not a table file".getBytes(StandardCharsets.UTF_8));
    }
  }

  private Path objectPath(String location) {
    String prefix = "s3://" + objectStore.bucket() + "/";
    assertThat(location).startsWith(prefix);
    return objectStore.bucketDirectory().resolve(location.substring(prefix.length()));
  }

  private void assertInBucket(String location) {
    assertThat(objectPath(location)).as(location).isRegularFile();
  }

  private Set<Path> objectsUnder(String key) throws IOException {
    try (Stream<Path> paths = Files.walk(objectStore.bucketDirectory().resolve(key))) {
      return paths.filter(Files::isRegularFile).collect(Collectors.toSet());
    }
  }

  /**
   * The manifest lists of every snapshot before the current one, and their manifests that the
   * current snapshot does not keep.
   */
  private static Set<String> metadataOfSnapshotsBefore(Table table) {
    Snapshot current = table.currentSnapshot();
    Set<String> kept = new HashSet<>();
    current.allManifests(table.io()).forEach(manifest -> kept.add(manifest.path()));
    Set<String> locations = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      if (snapshot.snapshotId() != current.snapshotId()) {
        locations.add(snapshot.manifestListLocation());
        snapshot.allManifests(table.io()).stream()
            .map(ManifestFile::path)
            .filter(path -> !kept.contains(path))
            .forEach(locations::add);
      }
    }
    return locations;
  }

  private static Set<String> dataFiles(Table table) throws IOException {
    Set<String> locations = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    }
    return locations;
  }
}
