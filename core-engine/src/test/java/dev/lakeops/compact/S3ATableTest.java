package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.testing.ObjectKeys;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table at an {@code s3a://} location, read and written through Hadoop's S3A file system ({@code
 * HadoopFileIO}) against a real S3 API server: compaction keeps its rows, orphan removal lists the
 * object store by prefix, and the same table can be maintained through S3FileIO instead.
 */
class S3ATableTest {
  @TempDir static Path temp;
  private static S3TestServer server;
  private static Configuration conf;
  private static JdbcCatalog catalog;

  @BeforeAll
  static void startObjectStore() throws Exception {
    server = S3TestServer.start(temp);
    conf = s3aConfiguration(server);
    catalog = new JdbcCatalog();
    catalog.setConf(conf);
    catalog.initialize(
        "lake",
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + temp.resolve("catalog.db"),
            "jdbc.schema-version",
            "V1",
            CatalogProperties.WAREHOUSE_LOCATION,
            "s3a://" + server.bucket() + "/warehouse",
            CatalogProperties.FILE_IO_IMPL,
            HadoopFileIO.class.getName()));
    catalog.createNamespace(Namespace.of("db"));
  }

  @AfterAll
  static void stopObjectStore() throws Exception {
    catalog.close();
    // Hadoop caches one S3A file system per bucket: close it with the server it talks to
    FileSystem.get(URI.create("s3a://" + server.bucket() + "/"), conf).close();
    server.close();
  }

  /** Hadoop S3A settings for the test server: path-style, plain HTTP, static keys. */
  private static Configuration s3aConfiguration(S3TestServer server) {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.endpoint", server.endpoint());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.connection.ssl.enabled", "false");
    conf.set("fs.s3a.access.key", S3TestServer.ACCESS_KEY);
    conf.set("fs.s3a.secret.key", S3TestServer.SECRET_KEY);
    conf.set(
        "fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return conf;
  }

  @Test
  void compactsATableAtAnS3aLocationThroughHadoopFileIo() {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "compacted"), 2, 0, 6, 50, 3);
    assertThat(table.io()).isInstanceOf(HadoopFileIO.class);
    assertThat(table.location()).startsWith("s3a://" + server.bucket() + "/warehouse/db/compacted");
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(result.inputFiles()).isEqualTo(6);
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    Set<String> referenced = ObjectKeys.referencedBy(table);
    assertThat(ObjectKeys.withEmptySegment(referenced)).isEmpty();
    assertThat(ObjectKeys.inBucket(server))
        .containsAll(
            referenced.stream()
                .map(location -> location.replaceFirst("^s3a:", "s3:"))
                .collect(Collectors.toSet()));
  }

  @Test
  void compactsAnS3aTableThroughS3FileIo() throws Exception {
    Table written =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "through_s3fileio"), 2, 0, 6, 50, 3);
    RowFingerprint before = RowFingerprint.of(written);
    Map<String, String> properties =
        new LinkedHashMap<>(server.jdbcCatalogProperties(temp.resolve("catalog.db")));
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, "s3a://" + server.bucket() + "/warehouse");
    Catalog s3FileIoCatalog = CatalogConnector.connect(new CatalogSettings("lake", properties));
    Table table = s3FileIoCatalog.loadTable(TableIdentifier.of("db", "through_s3fileio"));
    assertThat(table.io()).isInstanceOf(S3FileIO.class);
    assertThat(table.location()).startsWith("s3a://");

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    written.refresh();
    assertThat(RowFingerprint.of(written)).isEqualTo(before);
    assertThat(ObjectKeys.withEmptySegment(ObjectKeys.referencedBy(table))).isEmpty();
  }

  @Test
  void removesOrphanObjectsOfAnS3aTable() {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "orphans"), 2, 2, 4, 20, 2);
    String oldStray = table.location() + "/data/day=2026-11-01/00000-9-lost.parquet";
    String youngStray = table.location() + "/data/day=2026-11-02/00000-9-inflight.parquet";
    ObjectKeys.put(table.io(), oldStray, "not a table file");
    ObjectKeys.age(server, s3Location(table.location()), Duration.ofDays(10));
    ObjectKeys.put(table.io(), youngStray, "written a moment ago");
    RowFingerprint before = RowFingerprint.of(table);

    OrphanRemovalResult result =
        new OrphanFileRemover()
            .remove(table, OrphanRemovalOptions.builder().parallelism(2).build());

    assertThat(result.orphanFiles()).containsExactly(oldStray);
    assertThat(result.deletedFiles()).isEqualTo(1);
    assertThat(result.tooNewFiles()).isEqualTo(1);
    assertThat(ObjectKeys.inBucket(server))
        .doesNotContain(s3Location(oldStray))
        .contains(s3Location(youngStray));
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  private static String s3Location(String s3aLocation) {
    return s3aLocation.replaceFirst("^s3a:", "s3:");
  }
}
