package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.testing.ObjectKeys;
import dev.lakeops.testing.S3TestServer;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every table shape compacted on object storage (a real S3 API server, S3FileIO, a JDBC catalog):
 * rows unchanged, and no object key with an empty path segment, which S3 refuses.
 */
class S3TableShapesTest {
  private static final int DAYS = 2;

  /** How a table's files are laid out. */
  enum Shape {
    UNPARTITIONED,
    PARTITIONED,
    /** Files by {@code day}, then more by {@code month(day)}: files in two specs. */
    EVOLVED,
    /** Files by {@code day}, then more in an unpartitioned spec that is not spec 0. */
    EVOLVED_TO_UNPARTITIONED
  }

  @TempDir static Path temp;
  private static S3TestServer server;
  private static Catalog catalog;

  @BeforeAll
  static void startObjectStore() throws Exception {
    server = S3TestServer.start(temp);
    catalog =
        CatalogConnector.connect(
            new CatalogSettings("lake", server.jdbcCatalogProperties(temp.resolve("catalog.db"))));
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
  }

  @AfterAll
  static void stopObjectStore() throws Exception {
    if (catalog instanceof AutoCloseable closeable) {
      closeable.close();
    }
    server.close();
  }

  @ParameterizedTest(name = "{0}, format v{1}")
  @CsvSource({
    "UNPARTITIONED,2",
    "UNPARTITIONED,3",
    "PARTITIONED,2",
    "PARTITIONED,3",
    "EVOLVED,2",
    "EVOLVED,3",
    "EVOLVED_TO_UNPARTITIONED,2",
    "EVOLVED_TO_UNPARTITIONED,3"
  })
  void compactsEveryShapeOnObjectStorage(Shape shape, int formatVersion) {
    Table table = create(shape, formatVersion);
    assertThat(table.location()).startsWith(server.location("warehouse/db/"));
    Set<Integer> specsBefore = specsOfDataFiles(table);
    assertThat(specsBefore)
        .hasSize(shape == Shape.UNPARTITIONED || shape == Shape.PARTITIONED ? 1 : 2);
    RowFingerprint before = RowFingerprint.of(table);
    long filesBefore = dataFileCount(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(result.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
    assertThat(result.outputFiles()).isPositive().isLessThan(result.inputFiles());
    assertThat(dataFileCount(table)).isLessThan(filesBefore);
    Set<String> referenced = ObjectKeys.referencedBy(table);
    Set<String> stored = ObjectKeys.inBucket(server);
    assertThat(ObjectKeys.withEmptySegment(referenced)).isEmpty();
    assertThat(ObjectKeys.withEmptySegment(stored)).isEmpty();
    assertThat(stored).containsAll(referenced);
  }

  private static Table create(Shape shape, int formatVersion) {
    TableIdentifier name =
        TableIdentifier.of("db", shape.name().toLowerCase(Locale.ROOT) + "_v" + formatVersion);
    int days = shape == Shape.UNPARTITIONED ? 0 : DAYS;
    Table table = new DemoTableGenerator(catalog).create(name, formatVersion, days, 6, 50, 3);
    switch (shape) {
      case EVOLVED ->
          table.updateSpec().removeField("day").addField(Expressions.month("day")).commit();
      case EVOLVED_TO_UNPARTITIONED -> table.updateSpec().removeField("day").commit();
      default -> {
        return table;
      }
    }
    DemoTableGenerator.append(table, days, 6, 50, 3, 7L);
    return table;
  }

  private static Set<Integer> specsOfDataFiles(Table table) {
    Set<Integer> specs = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> specs.add(task.file().specId()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return specs;
  }

  private static long dataFileCount(Table table) {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      long count = 0;
      for (FileScanTask ignored : tasks) {
        count++;
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
