package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.ObjectKeys;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every operation of the command line on tables whose files live in an S3-compatible object store
 * behind a JDBC catalog: rows unchanged, the objects each operation should remove gone from the
 * bucket, and no object key with an empty path segment.
 */
class S3OperationsTest {
  private static final Duration OLD = Duration.ofDays(10);

  @TempDir static Path temp;
  private static S3TestServer server;
  private static Map<String, String> catalogProperties;
  private static Catalog catalog;

  @BeforeAll
  static void startObjectStore() throws Exception {
    server = S3TestServer.start(temp);
    catalogProperties = server.jdbcCatalogProperties(temp.resolve("catalog.db"));
    catalog = CatalogConnector.connect(new CatalogSettings("lake", catalogProperties));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
  }

  @AfterAll
  static void stopObjectStore() throws Exception {
    server.close();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "binpack|",
        "sort|--strategy sort --sort-order user_id",
        "zorder|--strategy zorder --zorder-columns user_id,amount"
      })
  void compactsWithEveryStrategy(String strategy, String flags) throws Exception {
    Table table = demoTable("events_" + strategy, 2, 2);
    RowFingerprint before = RowFingerprint.of(table);
    List<String> arguments = new ArrayList<>(List.of("compact", cliName(table), "--json"));
    if (flags != null) {
      arguments.addAll(List.of(flags.split(" ")));
    }

    JsonNode report = succeeds(arguments.toArray(String[]::new));

    assertThat(report.get("input_files").asInt()).isEqualTo(12);
    assertThat(report.get("output_files").asInt()).isEqualTo(2);
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(report.get("snapshot_id").asLong());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertStoredWithoutEmptySegments(table);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void compactsAwayPositionDeletesOfAnUnpartitionedTable(int formatVersion) throws Exception {
    Table table = unpartitionedTable("position_deletes_v" + formatVersion, formatVersion);
    List<DataFile> files = appendFiles(table, 6);
    for (DataFile file : files.subList(0, 3)) {
      if (formatVersion >= 3) {
        TableFiles.deletionVector(table, file, 0, 5, 19);
      } else {
        TableFiles.deletePositions(table, file, 0, 5, 19);
      }
    }
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo(6 * 20 - 9);
    assertThat(deleteFilesInScan(table)).hasSize(3);

    JsonNode report = succeeds("compact", cliName(table), "--json");

    assertThat(report.get("input_files").asInt()).isEqualTo(6);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(deleteFilesInScan(table)).isEmpty();
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void compactsAwayEqualityDeletesOfAnUnpartitionedTable() throws Exception {
    Table table = unpartitionedTable("equality_deletes", 2);
    appendFiles(table, 6);
    TableFiles.deleteEqual(table, null, "id", 3L, 25L, 118L);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo(6 * 20 - 3);

    JsonNode report = succeeds("compact", cliName(table), "--json");

    assertThat(report.get("input_files").asInt()).isEqualTo(6);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(deleteFilesInScan(table)).isEmpty();
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void convertsEqualityDeletesToPositionDeletesOfAnUnpartitionedTable() throws Exception {
    Table table = unpartitionedTable("converted_deletes", 2);
    appendFiles(table, 2);
    TableFiles.deleteEqual(table, null, "id", 3L, 25L);
    RowFingerprint before = RowFingerprint.of(table);

    JsonNode report = succeeds("convert-equality-deletes", cliName(table), "--json");

    assertThat(report.get("deleted_rows").asLong()).isEqualTo(2);
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    Set<String> positionDeletes = deleteFilesInScan(table);
    assertThat(positionDeletes).hasSize(1);
    assertThat(ObjectKeys.withEmptySegment(positionDeletes)).isEmpty();
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void rewritesPositionDeletesOfAnUnpartitionedTableIntoOneFile() throws Exception {
    Table table = unpartitionedTable("rewritten_deletes", 2);
    List<DataFile> files = appendFiles(table, 3);
    for (DataFile file : files) {
      TableFiles.deletePositions(table, file, 1, 7);
    }
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(deleteFilesInScan(table)).hasSize(3);

    succeeds("rewrite-position-deletes", cliName(table), "--min-input-files", "2", "--json");

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    Set<String> positionDeletes = deleteFilesInScan(table);
    assertThat(positionDeletes).hasSize(1);
    assertThat(ObjectKeys.withEmptySegment(positionDeletes)).isEmpty();
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void expireSnapshotsRemovesTheirObjectsFromTheBucket() throws Exception {
    Table table = demoTable("expired", 2, 2);
    succeeds("compact", cliName(table), "--json");
    table.refresh();
    RowFingerprint before = RowFingerprint.of(table);
    Set<String> referencedBefore = ObjectKeys.referencedBy(table);

    JsonNode report =
        succeeds(
            "expire-snapshots",
            cliName(table),
            "--older-than",
            "0s",
            "--retain-last",
            "1",
            "--json");

    assertThat(report.get("expired_snapshot_ids")).hasSize(4);
    assertThat(report.get("deleted_data_files").asInt()).isEqualTo(12);
    table.refresh();
    Set<String> removed = new HashSet<>(referencedBefore);
    removed.removeAll(ObjectKeys.referencedBy(table));
    Set<String> stored = ObjectKeys.inBucket(server);
    assertThat(removed.stream().filter(location -> location.endsWith(".parquet"))).hasSize(12);
    assertThat(stored).doesNotContainAnyElementsOf(removed);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void removeOrphanFilesDeletesOnlyOldStrayObjects() throws Exception {
    Table table = demoTable("orphans", 2, 2);
    String root = table.location();
    String oldStray = root + "/data/day=2026-11-01/00000-9-lost.parquet";
    String youngStray = root + "/data/day=2026-11-02/00000-9-inflight.parquet";
    ObjectKeys.put(table.io(), oldStray, "not a table file");
    ObjectKeys.age(server, root, OLD);
    ObjectKeys.put(table.io(), youngStray, "written a moment ago");
    Set<String> stored = ObjectKeys.inBucket(server);
    RowFingerprint before = RowFingerprint.of(table);

    JsonNode dryRun = succeeds("remove-orphan-files", cliName(table), "--dry-run", "--json");

    assertThat(dryRun.get("orphan_files")).hasSize(1);
    assertThat(dryRun.get("orphan_files").get(0).asText()).isEqualTo(oldStray);
    assertThat(dryRun.get("too_new_files").asInt()).isEqualTo(1);
    assertThat(dryRun.get("deleted_files").asInt()).isZero();
    assertThat(ObjectKeys.inBucket(server)).isEqualTo(stored);

    JsonNode removal = succeeds("remove-orphan-files", cliName(table), "--json");

    assertThat(removal.get("deleted_files").asInt()).isEqualTo(1);
    Set<String> after = ObjectKeys.inBucket(server);
    assertThat(after).doesNotContain(oldStray).contains(youngStray);
    assertThat(after).containsAll(ObjectKeys.referencedBy(table));
    assertThat(after).hasSize(stored.size() - 1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void rewriteManifestsPacksThemIntoOne() throws Exception {
    Table table = demoTable("manifests", 2, 2);
    RowFingerprint before = RowFingerprint.of(table);

    JsonNode report = succeeds("rewrite-manifests", cliName(table), "--json");

    assertThat(report.get("manifests_before").asInt()).isEqualTo(4);
    assertThat(report.get("manifests_after").asInt()).isEqualTo(1);
    table.refresh();
    assertThat(table.currentSnapshot().allManifests(table.io())).hasSize(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void maintainRunsEveryStep() throws Exception {
    Table table = demoTable("maintained", 2, 2);
    table.updateProperties().set(TableProperties.MAX_SNAPSHOT_AGE_MS, "0").commit();
    String stray = table.location() + "/data/day=2026-11-01/00000-9-lost.parquet";
    ObjectKeys.put(table.io(), stray, "not a table file");
    ObjectKeys.age(server, table.location(), OLD);
    RowFingerprint before = RowFingerprint.of(table);

    JsonNode report = succeeds("maintain", cliName(table), "--json");

    assertThat(report.get("expire").get("expired_snapshot_ids")).hasSize(3);
    assertThat(report.get("orphans").get("orphan_files")).hasSize(1);
    assertThat(report.get("orphans").get("deleted_files").asInt()).isEqualTo(1);
    assertThat(report.get("compact").get("input_files").asInt()).isEqualTo(12);
    assertThat(report.get("compact").get("output_files").asInt()).isEqualTo(2);
    assertThat(report.get("manifests").isNull()).isFalse();
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(ObjectKeys.inBucket(server)).doesNotContain(stray);
    assertStoredWithoutEmptySegments(table);
  }

  @Test
  void serveOnceMaintainsACatalogOnObjectStorage() throws Exception {
    Map<String, String> properties =
        new LinkedHashMap<>(server.jdbcCatalogProperties(temp.resolve("serve-catalog.db")));
    properties.put("warehouse", server.location("serve-warehouse"));
    Catalog serveCatalog = CatalogConnector.connect(new CatalogSettings("lake", properties));
    ((SupportsNamespaces) serveCatalog).createNamespace(Namespace.of("db"));
    Table fragmented = SimpleTables.create(serveCatalog, "fragmented", 2, Map.of());
    for (int file = 0; file < 14; file++) {
      SimpleTables.append(fragmented, 0, file * 100L, 20);
    }
    RowFingerprint before = RowFingerprint.of(fragmented);
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "serve",
                "--once",
                "--store",
                "sqlite:" + temp.resolve("ledger.db"),
                "-C",
                "name=lake"));
    properties.forEach((key, value) -> arguments.addAll(List.of("-C", key + "=" + value)));

    CommandLineRun serve = CommandLineRun.of(arguments.toArray(String[]::new));

    assertThat(serve.exitCode()).as(serve.stderr()).isZero();
    assertThat(serve.stderr())
        .contains("db.fragmented compact succeeded")
        .contains("lakeops serve: stopped");
    fragmented.refresh();
    assertThat(RowFingerprint.of(fragmented)).isEqualTo(before);
    try (CloseableIterable<FileScanTask> tasks = fragmented.newScan().planFiles()) {
      assertThat(tasks).hasSize(1);
    }
    assertStoredWithoutEmptySegments(fragmented);
  }

  private static Table demoTable(String name, int formatVersion, int days) {
    return new DemoTableGenerator(catalog)
        .create(TableIdentifier.of("db", name), formatVersion, days, 12, 100, 3);
  }

  private static Table unpartitionedTable(String name, int formatVersion) {
    return catalog.createTable(
        TableIdentifier.of("db", name),
        SimpleTables.SCHEMA,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
  }

  /** Appends {@code count} files of 20 rows each, one commit each. */
  private static List<DataFile> appendFiles(Table table, int count) {
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < count; file++) {
      files.add(
          TableFiles.append(table, null, SimpleTables.rows(table.schema(), file * 20L, 20, 0)));
    }
    return files;
  }

  private static Set<String> deleteFilesInScan(Table table) {
    Set<String> deletes = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> task.deletes().forEach(delete -> deletes.add(delete.location())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return deletes;
  }

  /** {@code namespace.table}, as the command line names a table. */
  private static String cliName(Table table) {
    return table.name().substring("lake.".length());
  }

  private static JsonNode succeeds(String... command) throws Exception {
    List<String> arguments = new ArrayList<>(List.of(command));
    arguments.addAll(List.of("-C", "name=lake"));
    catalogProperties.forEach((key, value) -> arguments.addAll(List.of("-C", key + "=" + value)));
    CommandLineRun run = CommandLineRun.of(arguments.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return new ObjectMapper().readTree(run.stdout());
  }

  private static void assertStoredWithoutEmptySegments(Table table) {
    Set<String> referenced = ObjectKeys.referencedBy(table);
    Set<String> stored = ObjectKeys.inBucket(server);
    assertThat(ObjectKeys.withEmptySegment(referenced)).isEmpty();
    assertThat(ObjectKeys.withEmptySegment(stored)).isEmpty();
    assertThat(stored).containsAll(referenced);
  }
}
