package dev.lakeops.maintain.orphan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.ObjectKeys;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphan removal on object storage: the table location is listed by prefix through S3FileIO, and
 * only unreferenced objects older than the cutoff are deleted.
 */
class S3OrphanRemovalTest {
  private static final Duration OLD = Duration.ofDays(10);

  @TempDir Path temp;
  private S3TestServer server;
  private Table table;

  @BeforeEach
  void createTableOnObjectStorage() throws Exception {
    server = S3TestServer.start(temp);
    Catalog catalog =
        CatalogConnector.connect(
            new CatalogSettings("lake", server.jdbcCatalogProperties(temp.resolve("catalog.db"))));
    table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 4, 20, 2);
  }

  @AfterEach
  void stopObjectStore() throws Exception {
    server.close();
  }

  @Test
  void deletesOnlyOldUnreferencedObjectsAndDryRunDeletesNothing() {
    String root = table.location();
    String oldStray = root + "/data/day=2026-11-01/00000-9-lost.parquet";
    String oldStrayOutsidePartitions = root + "/data/abandoned/part-1.parquet";
    String oldStrayMetadata = root + "/metadata/lost-m0.avro";
    String youngStray = root + "/data/day=2026-11-02/00000-9-inflight.parquet";
    String hidden = root + "/data/_temporary/attempt.parquet";
    for (String stray : Set.of(oldStray, oldStrayOutsidePartitions, oldStrayMetadata, hidden)) {
      ObjectKeys.put(table.io(), stray, "not a table file");
    }
    // an empty "folder" object, as consoles and some tools create: not a file, never an orphan
    String folder = root + "/data/folder/";
    ObjectKeys.put(table.io(), folder, "");
    ObjectKeys.age(server, root, OLD);
    ObjectKeys.put(table.io(), youngStray, "written a moment ago");
    Set<String> referenced = ObjectKeys.referencedBy(table);
    Set<String> stored = ObjectKeys.inBucket(server);
    assertThat(stored).containsAll(referenced).hasSize(referenced.size() + 6);
    RowFingerprint rows = RowFingerprint.of(table);

    OrphanRemovalResult dryRun =
        new OrphanFileRemover()
            .remove(table, OrphanRemovalOptions.builder().dryRun(true).parallelism(2).build());

    assertThat(dryRun.orphanFiles())
        .containsExactlyInAnyOrder(oldStray, oldStrayOutsidePartitions, oldStrayMetadata);
    assertThat(dryRun.deletedFiles()).isZero();
    assertThat(dryRun.tooNewFiles()).isEqualTo(1);
    assertThat(dryRun.listedFiles()).isEqualTo(referenced.size() + 4);
    assertThat(ObjectKeys.inBucket(server)).isEqualTo(stored);

    OrphanRemovalResult removal =
        new OrphanFileRemover()
            .remove(table, OrphanRemovalOptions.builder().parallelism(2).build());

    assertThat(removal.orphanFiles())
        .containsExactlyInAnyOrder(oldStray, oldStrayOutsidePartitions, oldStrayMetadata);
    assertThat(removal.deletedFiles()).isEqualTo(3);
    assertThat(removal.failedDeletes()).isZero();
    assertThat(ObjectKeys.inBucket(server))
        .containsAll(referenced)
        .contains(youngStray, hidden, folder)
        .doesNotContain(oldStray, oldStrayOutsidePartitions, oldStrayMetadata)
        .hasSize(referenced.size() + 3);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }
}
