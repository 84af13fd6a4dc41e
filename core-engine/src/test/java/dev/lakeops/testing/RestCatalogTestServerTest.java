package dev.lakeops.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Iceberg's REST catalog server with its table files in the S3 test server. */
class RestCatalogTestServerTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path temp;

  @Test
  void tablesCreatedThroughTheRestCatalogLiveInTheBucket() throws Exception {
    try (S3TestServer objectStore = S3TestServer.start(temp.resolve("s3"));
        RestCatalogTestServer server =
            RestCatalogTestServer.start(objectStore, temp.resolve("catalog"))) {
      assertThat(server.uri()).startsWith("http://127.0.0.1:");
      assertThat(server.catalogProperties())
          .containsEntry("type", "rest")
          .containsEntry("uri", server.uri())
          .containsAllEntriesOf(objectStore.fileIoProperties());
      RowFingerprint written;
      List<String> dataFiles;
      try (RESTCatalog writer = connect(server)) {
        Table table = new DemoTableGenerator(writer).create(EVENTS, 2, 2, 6, 50, 3);
        written = RowFingerprint.of(table);
        dataFiles = dataFileLocations(table);
        assertThat(table.location()).isEqualTo(objectStore.location("warehouse/db/events"));
      }

      assertThat(dataFiles).hasSize(6);
      for (String location : dataFiles) {
        String key = location.substring(("s3://" + objectStore.bucket() + "/").length());
        assertThat(objectStore.bucketDirectory().resolve(key)).isRegularFile();
      }
      try (Stream<Path> metadata =
          Files.list(objectStore.bucketDirectory().resolve("warehouse/db/events/metadata"))) {
        assertThat(metadata.map(path -> path.getFileName().toString()))
            .anyMatch(name -> name.endsWith(".metadata.json"));
      }
      try (RESTCatalog reader = connect(server)) {
        Table table = reader.loadTable(EVENTS);
        assertThat(RowFingerprint.of(table)).isEqualTo(written);
        assertThat(table.currentSnapshot().summary()).containsEntry("total-data-files", "6");
      }
    }
  }

  @Test
  void closeStopsTheServerAndMayBeCalledTwice() throws Exception {
    try (S3TestServer objectStore = S3TestServer.start(temp.resolve("s3"))) {
      RestCatalogTestServer server =
          RestCatalogTestServer.start(objectStore, temp.resolve("catalog"));
      HttpRequest config = HttpRequest.newBuilder(URI.create(server.uri() + "/v1/config")).build();
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> answer = client.send(config, HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).contains("\"defaults\"").contains("\"overrides\"");

      server.close();
      server.close();

      URI uri = URI.create(server.uri());
      assertThatThrownBy(() -> new Socket(uri.getHost(), uri.getPort()).close())
          .isInstanceOf(ConnectException.class)
          .hasMessageContaining("Connection refused");
    }
  }

  private static RESTCatalog connect(RestCatalogTestServer server) {
    Catalog catalog =
        CatalogConnector.connect(new CatalogSettings("lake", server.catalogProperties()));
    assertThat(catalog).isInstanceOf(RESTCatalog.class);
    return (RESTCatalog) catalog;
  }

  private static List<String> dataFileLocations(Table table) throws IOException {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> locations.add(task.file().location()));
    }
    return locations;
  }
}
