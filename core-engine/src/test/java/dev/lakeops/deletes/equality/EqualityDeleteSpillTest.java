package dev.lakeops.deletes.equality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Equality deletes whose keys exceed the budget are resolved to positions by the spilling
 * anti-join; the rows come out exactly as Iceberg's generic reader sees them (sequence numbers, two
 * different key columns, position deletes alongside), and no delete or spill file is left.
 */
class EqualityDeleteSpillTest {
  @TempDir Path warehouse;
  @TempDir Path spill;

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void equalityDeletesLargerThanTheBudgetAreAppliedBySpilling(int formatVersion)
      throws IOException {
    Table table = deletedTable(formatVersion);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = compact(table, "16MB", Strategy.BINPACK);

    table.refresh();
    assertThat(result.spilledBytes()).isPositive();
    assertThat(result.spillFiles()).isPositive();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertNoDeleteFiles(table);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
    try (Stream<Path> left = Files.list(spill)) {
      assertThat(left).isEmpty();
    }
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void sortAppliesSpilledEqualityDeletesToo(int formatVersion) throws IOException {
    Table table = deletedTable(formatVersion);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = compact(table, "16MB", Strategy.SORT);

    table.refresh();
    assertThat(result.spillFiles()).isPositive();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertNoDeleteFiles(table);
    try (Stream<Path> left = Files.list(spill)) {
      assertThat(left).isEmpty();
    }
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void equalityDeletesThatFitTheBudgetAreAppliedWithoutSpilling(int formatVersion) {
    Table table = deletedTable(formatVersion);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result = compact(table, "512MB", Strategy.BINPACK);

    table.refresh();
    assertThat(result.spilledBytes()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertNoDeleteFiles(table);
  }

  /**
   * An unpartitioned table whose equality deletes key on dates, nullable strings, decimals and
   * doubles (two key sets, duplicate keys, nulls, {@code -0.0} against {@code 0.0}): after the
   * spilled join the rows are exactly those Iceberg's own reader keeps.
   */
  @Test
  void spilledJoinMatchesKeysLikeIceberg() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "day", Types.DateType.get()),
            Types.NestedField.optional(3, "name", Types.StringType.get()),
            Types.NestedField.optional(4, "price", Types.DecimalType.of(9, 2)),
            Types.NestedField.optional(5, "score", Types.DoubleType.get()));
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "typed"),
            schema,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    for (int file = 0; file < 3; file++) {
      List<Record> rows = new ArrayList<>();
      for (long id = file * 20_000L; id < (file + 1) * 20_000L; id++) {
        Record row = GenericRecord.create(schema);
        row.setField("id", id);
        fillKeys(row, id);
        rows.add(row);
      }
      TableFiles.append(table, null, rows);
    }
    EqualityDeleteFiles.commitRows(
        table,
        null,
        List.of("day", "name"),
        50_000,
        (index, row) -> {
          long id = (index % 3_000) * 11;
          row.setField("day", LocalDate.of(2026, 1, 1).plusDays(id % 400));
          row.setField("name", id % 7 == 0 ? null : "name-" + (id % 1_000));
        });
    EqualityDeleteFiles.commitRows(
        table,
        null,
        List.of("price", "score"),
        45_000,
        (index, row) -> {
          row.setField("price", BigDecimal.valueOf((index * 7) % 5_000, 2));
          row.setField("score", index == 0 ? 0.0 : (index * 7) * 0.5);
        });
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isBetween(1L, 59_999L);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .memoryBudget(ByteSize.parse("16MB"))
                    .spillDirectory(spill)
                    .options(
                        Map.of("max-concurrent-file-group-rewrites", "1", "rewrite-all", "true"))
                    .build());

    table.refresh();
    assertThat(result.spillFiles()).isPositive();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertNoDeleteFiles(table);
  }

  private static void fillKeys(Record row, long id) {
    row.setField("day", LocalDate.of(2026, 1, 1).plusDays(id % 400));
    row.setField("name", id % 7 == 0 ? null : "name-" + (id % 1_000));
    row.setField("price", BigDecimal.valueOf(id % 5_000, 2));
    row.setField("score", id % 3 == 0 ? -0.0 : id * 0.5);
  }

  /**
   * Partition 0: two files of 60,000 rows; 50,000 even ids deleted by {@code id}; then a file that
   * repeats ids 0..999 (written after that delete, so it keeps them); then 40,000 {@code data}
   * values deleted (applying to all three files); plus a few position deletes. Partition 1 has no
   * deletes.
   */
  private Table deletedTable(int formatVersion) {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "t", formatVersion, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 60_000, 0));
    DataFile second =
        TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 60_000, 60_000, 0));
    EqualityDeleteFiles.commit(table, partition, "id", 50_000, index -> index * 2);
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 1_000, 0));
    EqualityDeleteFiles.commit(table, partition, "data", 40_000, index -> "row-" + (index * 3));
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, second, 1, 2, 3);
    } else {
      TableFiles.deletePositions(table, second, 1, 2, 3);
    }
    SimpleTables.append(table, 1, 500_000, 1_000);
    SimpleTables.append(table, 1, 501_000, 1_000);
    return table;
  }

  private CompactionResult compact(Table table, String memory, Strategy strategy) {
    return new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .strategy(strategy)
                .sortOrder(strategy == Strategy.SORT ? "data ASC" : null)
                .memoryBudget(ByteSize.parse(memory))
                .spillDirectory(spill)
                .options(Map.of("max-concurrent-file-group-rewrites", "1", "min-input-files", "2"))
                .build());
  }

  private static void assertNoDeleteFiles(Table table) {
    TableHealth health = TableHealthInspector.inspect(table);
    assertThat(health.equalityDeleteFiles()).isZero();
    assertThat(health.positionDeleteFiles()).isZero();
  }
}
