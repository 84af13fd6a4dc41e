package dev.lakeops.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.telemetry.advise.ColumnStatistics;
import dev.lakeops.telemetry.advise.ValueRange;
import dev.lakeops.telemetry.event.TableName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.GenericBlobMetadata;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.puffin.Blob;
import org.apache.iceberg.puffin.Puffin;
import org.apache.iceberg.puffin.PuffinWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IcebergColumnStatisticsTest {
  @TempDir Path warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 2, 12, 500, 4);
  }

  @Test
  void estimatesDistinctCountsAndRangesFromFileBounds() {
    Map<String, ColumnStatistics> statistics =
        new IcebergColumnStatistics(table)
            .statistics(
                TelemetryTableNames.of(table),
                Set.of("user_id", "day", "country", "payload", "missing"));

    assertThat(statistics).containsOnlyKeys("user_id", "day", "country", "payload");
    // user_id: 0..99,999 drawn 6,000 times (a tenth null): the range width, capped by the non-null
    // values
    long userIds = statistics.get("user_id").distinctCount().getAsLong();
    assertThat(userIds).isBetween(5_000L, 6_000L);
    // day: two dates, by range width
    assertThat(statistics.get("day").distinctCount()).hasValue(2);
    assertThat(statistics.get("day").valueRange())
        .contains(new ValueRange("2026-11-01", "2026-11-02"));
    // country: ten values in every file; the bounds show only a few of them (a lower bound)
    assertThat(statistics.get("country").distinctCount().getAsLong()).isBetween(2L, 10L);
    // payload: random strings whose bounds never repeat: close to unique
    assertThat(statistics.get("payload").distinctCount()).hasValue(6_000);
  }

  @Test
  void prefersPuffinDistinctCountsOfTheCurrentSnapshot() throws IOException {
    Snapshot current = table.currentSnapshot();
    table.updateStatistics().setStatistics(puffinFile(current, Map.of("ndv", "4242"))).commit();

    Map<String, ColumnStatistics> statistics =
        new IcebergColumnStatistics(table)
            .statistics(TelemetryTableNames.of(table), Set.of("user_id", "day"));

    assertThat(statistics.get("user_id").distinctCount()).hasValue(4242);
    assertThat(statistics.get("day").distinctCount()).hasValue(2);
  }

  @Test
  void ignoresBlobsWithoutAnNdvProperty() throws IOException {
    table.updateStatistics().setStatistics(puffinFile(table.currentSnapshot(), Map.of())).commit();

    Map<String, ColumnStatistics> statistics =
        new IcebergColumnStatistics(table)
            .statistics(TelemetryTableNames.of(table), Set.of("user_id"));

    assertThat(statistics.get("user_id").distinctCount().getAsLong()).isBetween(5_000L, 6_000L);
  }

  @Test
  void emptyTableHasNoDistinctCounts() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table empty = catalog.createTable(TableIdentifier.of("db", "empty"), DemoTableGenerator.SCHEMA);

    Map<String, ColumnStatistics> statistics =
        new IcebergColumnStatistics(empty)
            .statistics(TelemetryTableNames.of(empty), Set.of("user_id"));

    assertThat(statistics.get("user_id").distinctCount()).isEmpty();
    assertThat(statistics.get("user_id").valueRange()).isEmpty();
  }

  @Test
  void namesTheTableByCatalogNamespaceAndTable() {
    assertThat(TelemetryTableNames.of(table)).isEqualTo(TableName.of("hadoop", "db", "events"));
    Table pathTable = new HadoopTables(new Configuration()).load(table.location());
    assertThatThrownBy(() -> TelemetryTableNames.of(pathTable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not catalog.namespace.table");
  }

  private StatisticsFile puffinFile(Snapshot snapshot, Map<String, String> properties)
      throws IOException {
    String path = table.location() + "/metadata/stats-" + snapshot.snapshotId() + ".puffin";
    try (PuffinWriter writer =
        Puffin.write(table.io().newOutputFile(path)).createdBy("lakeops test").build()) {
      writer.add(
          new Blob(
              IcebergColumnStatistics.THETA_SKETCH_BLOB,
              List.of(2),
              snapshot.snapshotId(),
              snapshot.sequenceNumber(),
              ByteBuffer.wrap(new byte[] {1, 2, 3}),
              null,
              properties));
      writer.finish();
      return new GenericStatisticsFile(
          snapshot.snapshotId(),
          path,
          writer.fileSize(),
          writer.footerSize(),
          writer.writtenBlobsMetadata().stream().map(GenericBlobMetadata::from).toList());
    }
  }
}
