package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.testing.Conditions;
import dev.lakeops.verify.RowFingerprint;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compacts a table whose files live in an S3-compatible object store, through the CLI. */
class S3CompactionTest {
  private static final String ACCESS_KEY = "lakeops";
  private static final String SECRET_KEY = "lakeops-secret";

  @TempDir Path temp;
  private S3Proxy proxy;
  private BlobStore blobStore;

  @BeforeEach
  void startObjectStore() throws Exception {
    java.nio.file.Files.createDirectories(temp.resolve("blobs"));
    blobStore = new FilesystemNio2BlobStore(temp.resolve("blobs").toString());
    proxy =
        S3Proxy.builder()
            .blobStore(blobStore)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    proxy.start();
    Conditions.await(
        "S3Proxy to start", Duration.ofSeconds(30), () -> proxy.getState().equals("STARTED"));
    blobStore.createContainer("lake");
  }

  @AfterEach
  void stopObjectStore() throws Exception {
    proxy.stop();
    blobStore.close();
  }

  @Test
  void compactsATableOnObjectStorageThroughAJdbcCatalog() throws Exception {
    Map<String, String> catalogProperties = new LinkedHashMap<>();
    catalogProperties.put("type", "jdbc");
    catalogProperties.put("uri", "jdbc:sqlite:" + temp.resolve("catalog.db"));
    catalogProperties.put("jdbc.schema-version", "V1");
    catalogProperties.put("warehouse", "s3://lake/warehouse");
    catalogProperties.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    catalogProperties.put("s3.endpoint", "http://127.0.0.1:" + proxy.getPort());
    catalogProperties.put("s3.path-style-access", "true");
    catalogProperties.put("s3.access-key-id", ACCESS_KEY);
    catalogProperties.put("s3.secret-access-key", SECRET_KEY);
    catalogProperties.put("client.region", "us-east-1");
    Catalog catalog = CatalogConnector.connect(new CatalogSettings("lake", catalogProperties));
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 12, 300, 4);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(table.location()).startsWith("s3://lake/warehouse");

    List<String> arguments =
        new ArrayList<>(List.of("compact", "db.events", "--json", "-C", "name=lake"));
    catalogProperties.forEach((key, value) -> arguments.addAll(List.of("-C", key + "=" + value)));
    CommandLineRun run = CommandLineRun.of(arguments.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.stdout());
    assertThat(json.get("input_files").asInt()).isEqualTo(12);
    assertThat(json.get("output_files").asInt()).isEqualTo(2);
    assertThat(json.get("snapshot_id").asLong()).isPositive();
    Table reloaded = catalog.loadTable(TableIdentifier.of("db", "events"));
    assertThat(reloaded.currentSnapshot().snapshotId()).isEqualTo(json.get("snapshot_id").asLong());
    assertThat(RowFingerprint.of(reloaded)).isEqualTo(before);
  }
}
