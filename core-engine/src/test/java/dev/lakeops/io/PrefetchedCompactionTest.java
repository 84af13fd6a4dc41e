package dev.lakeops.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compacts tables on an S3 server that answers every request 5 ms late, the way an object store
 * does: inputs are fetched ahead, each with one GET, many at a time; outputs are written without a
 * HEAD first; rows stay identical, partitioned or not.
 */
class PrefetchedCompactionTest {
  private static final Duration LATENCY = Duration.ofMillis(5);

  @TempDir static Path temp;
  private static S3TestServer server;
  private static Catalog catalog;

  @BeforeAll
  static void startObjectStore() throws Exception {
    server = S3TestServer.start(temp, "lake", LATENCY);
    catalog =
        CatalogConnector.connect(
            new CatalogSettings("lake", server.jdbcCatalogProperties(temp.resolve("catalog.db"))));
  }

  @AfterAll
  static void stopObjectStore() throws Exception {
    server.close();
  }

  @Test
  void partitionedTableReadsEachInputWithOneGet() throws Exception {
    compactsWithOneGetPerInput("partitioned", 3);
  }

  @Test
  void unpartitionedTableReadsEachInputWithOneGet() throws Exception {
    compactsWithOneGetPerInput("unpartitioned", 0);
  }

  @Test
  void withoutPrefetchingEachInputTakesAFooterAndADataRequest() throws Exception {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "unprefetched"), 2, 0, 8, 200, 8);
    Set<String> inputs = dataKeys(table);
    RowFingerprint before = RowFingerprint.of(table);
    server.requests().reset();

    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .options(Map.of(ObjectReadOptions.PREFETCH.key(), "false"))
                .build());

    List<String> dataGets =
        server.requests().keys("GET").stream().filter(inputs::contains).toList();
    assertThat(dataGets).hasSize(2 * inputs.size());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  private void compactsWithOneGetPerInput(String name, int days) throws Exception {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", name), 2, days, 24, 200, 24);
    Set<String> inputs = dataKeys(table);
    RowFingerprint before = RowFingerprint.of(table);
    server.requests().reset();

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.inputFiles()).isEqualTo(24);
    assertThat(result.outputFiles()).isEqualTo(Math.max(1, days));
    List<String> dataGets =
        server.requests().keys("GET").stream().filter(inputs::contains).toList();
    assertThat(dataGets).hasSize(inputs.size()).containsExactlyInAnyOrderElementsOf(inputs);
    assertThat(server.requests().peakGetsInFlight()).isGreaterThan(2);
    assertThat(server.requests().keys("HEAD")).noneMatch(key -> key.contains("/data/"));
    assertThat(server.requests().log()).noneMatch(entry -> entry.contains("//"));
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(dataKeys(table)).hasSize(Math.max(1, days)).doesNotContainAnyElementsOf(inputs);
  }

  /** The object keys of the table's live data files. */
  private static Set<String> dataKeys(Table table) throws Exception {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      return StreamSupport.stream(tasks.spliterator(), false)
          .map(FileScanTask::file)
          .map(DataFile::location)
          .map(location -> location.substring(("s3://" + server.bucket() + "/").length()))
          .collect(Collectors.toCollection(HashSet::new));
    }
  }
}
