package dev.lakeops.trino.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.trino.fs.LocalSchemeFileIO;
import io.trino.testing.MaterializedResult;
import io.trino.testing.StandaloneQueryRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A table written by Trino's Iceberg connector, one {@code INSERT} per commit, compacted by binpack
 * through the core: Trino's Parquet writer's files merge without decoding, and Trino reads the
 * merged file back with the same rows (count and checksums over every column, before and after).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTrinoWrittenFilesCompaction {
  private static final String CHECKSUM =
      "SELECT count(*), sum(id), sum(amount), checksum(country), checksum(event_time), checksum(flag),"
          + " checksum(score), checksum(note) FROM %s";

  private Path directory;
  private StandaloneQueryRunner runner;
  private JdbcCatalog catalog;

  @BeforeAll
  void startEngine() throws Exception {
    directory = Files.createTempDirectory("lakeops-trino-written");
    runner = LakeOpsQueryRunner.create(directory, List.of());
    catalog = new JdbcCatalog();
    catalog.initialize(
        LakeOpsQueryRunner.JDBC_CATALOG_NAME,
        Map.of(
            CatalogProperties.URI,
            "jdbc:sqlite:" + directory.resolve("catalog.db"),
            CatalogProperties.WAREHOUSE_LOCATION,
            "local:///",
            CatalogProperties.FILE_IO_IMPL,
            LocalSchemeFileIO.class.getName(),
            LocalSchemeFileIO.ROOT_PROPERTY,
            directory.resolve("warehouse").toString()));
  }

  @AfterAll
  void stopEngine() throws Exception {
    if (catalog != null) {
      catalog.close();
    }
    if (runner != null) {
      runner.close();
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Test
  void mergesTrinoWrittenFilesWithoutDecoding() {
    runner.execute(
        "CREATE TABLE trino_events (id BIGINT, country VARCHAR, amount DECIMAL(10, 2), event_time TIMESTAMP(6),"
            + " flag BOOLEAN, score DOUBLE, note VARCHAR) WITH (format = 'PARQUET')");
    for (int batch = 0; batch < 6; batch++) {
      runner.execute(
          "INSERT INTO trino_events SELECT n, IF(n % 11 = 0, NULL, element_at(ARRAY['NL', 'DE', 'FR'], CAST(n % 3 + 1 AS INTEGER))),"
              + " CAST(n % 1000 AS DECIMAL(10, 2)) / 10, TIMESTAMP '2024-01-01 00:00:00.000000' + n * INTERVAL '1' SECOND,"
              + " n % 2 = 0, IF(n % 5 = 0, NULL, n * 0.5), IF(n % 3 = 0, NULL, 'note ' || CAST(n AS VARCHAR))"
              + " FROM UNNEST(sequence("
              + batch * 1_000
              + ", "
              + (batch * 1_000 + 999)
              + ")) AS t(n)");
    }
    MaterializedResult before = runner.execute(CHECKSUM.formatted("trino_events"));
    long filesBefore = FragmentedTables.fileCount(runner, "trino_events");
    assertThat(filesBefore).isEqualTo(6);
    Table table = catalog.loadTable(TableIdentifier.of(LakeOpsQueryRunner.SCHEMA, "trino_events"));

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    assertThat(result.fallbackReasons()).isEmpty();
    assertThat(result.inputFiles()).isEqualTo(filesBefore);
    assertThat(result.copiedBytes()).isPositive().isEqualTo(result.inputBytes());
    assertThat(result.decodedBytes()).isZero();
    assertThat(FragmentedTables.fileCount(runner, "trino_events")).isEqualTo(1);
    assertThat(runner.execute(CHECKSUM.formatted("trino_events"))).isEqualTo(before);
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_events WHERE id BETWEEN 2500 AND 3499")
                .getOnlyValue())
        .isEqualTo(1_000L);
    assertThat(
            runner
                .execute("SELECT count(*) FROM trino_events WHERE country IS NULL")
                .getOnlyValue())
        .isEqualTo(546L);
  }
}
