package dev.lakeops.rewrite.sort;

import static dev.lakeops.rewrite.sort.SortedTables.assertSortedWithinPartitions;
import static dev.lakeops.rewrite.sort.SortedTables.dataFiles;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConstantColumnsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "region", Types.StringType.get()),
          Types.NestedField.optional(3, "tenant", Types.IntegerType.get()),
          Types.NestedField.optional(4, "note", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.LongType.get()),
          Types.NestedField.optional(6, "day", Types.DateType.get()));
  private static final String NOTE = "the same note in every row of the table";
  private static final int ROWS_PER_FILE = 40_000;

  @TempDir Path warehouse;
  @TempDir Path spill;
  private Table table;

  /**
   * Partition region=eu: three files, tenant 7 and day 19000 in every row, note NOTE in every row.
   * Partition region=null: two files, tenant 7 in one and 8 in the other, day 19000 in both.
   */
  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        catalog.createTable(
            TableIdentifier.of("db", "constants"),
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("region").build(),
            Map.of("format-version", "2"));
    Random random = new Random(42);
    long id = 0;
    for (int file = 0; file < 3; file++) {
      TableFiles.append(table, partition("eu"), rows("eu", 7, random, id));
      id += ROWS_PER_FILE;
    }
    for (int tenant : new int[] {7, 8}) {
      TableFiles.append(table, partition(null), rows(null, tenant, random, id));
      id += ROWS_PER_FILE;
    }
  }

  @Test
  void identityPartitionColumnsAndColumnsWithOneValueInEveryFileAreConstant() {
    ConstantColumns europe = constantsOf(partition("eu"), Set.of(5));

    assertThat(europe.contains(2)).as("identity partition column region").isTrue();
    assertThat(europe.genericValue(SCHEMA.findField("region"))).isEqualTo("eu");
    assertThat(europe.contains(3)).as("tenant: 7 in every file").isTrue();
    assertThat(europe.genericValue(SCHEMA.findField("tenant"))).isEqualTo(7);
    assertThat(europe.contains(6)).as("day: 19000 in every file").isTrue();
    assertThat(europe.contains(4)).as("a string's bounds may be truncated: never proven").isFalse();
    assertThat(europe.contains(1)).as("id differs").isFalse();
    assertThat(europe.contains(5)).as("amount is the sort key").isFalse();
    assertThat(europe.withoutConstants(SCHEMA).columns())
        .extracting(Types.NestedField::name)
        .containsExactly("id", "note", "amount");

    ConstantColumns unknown = constantsOf(partition(null), Set.of(5));

    assertThat(unknown.contains(2)).as("null identity partition value").isTrue();
    assertThat(unknown.genericValue(SCHEMA.findField("region"))).isNull();
    assertThat(unknown.contains(3)).as("tenant 7 in one file, 8 in the other").isFalse();
    assertThat(unknown.contains(6)).isTrue();

    assertThat(constantsOf(partition("eu"), Set.of(2, 3, 6)).isEmpty())
        .as("sort key columns stay")
        .isTrue();
  }

  @Test
  void sortFillsConstantColumnsBackIntoEveryRow() {
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .strategy(Strategy.SORT)
                    .sortOrder("amount DESC, id")
                    .memoryBudget(ByteSize.ofMegabytes(24))
                    .options(Map.of(RewriteOptions.REWRITE_ALL, "true"))
                    .spillDirectory(spill)
                    .build());
    table.refresh();

    assertThat(result.spillFiles()).as("the tiny budget spills runs").isGreaterThan(2);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(
            assertSortedWithinPartitions(
                table, SortOrderParser.parse(table.schema(), "amount DESC, id")))
        .isEqualTo(5L * ROWS_PER_FILE);
    List<DataFile> files = dataFiles(table);
    assertThat(files).hasSize(2);
    for (DataFile file : files) {
      String region = file.partition().get(0, String.class);
      for (StructLike row : SortedTables.rows(table, file)) {
        assertThat(row.get(1, String.class)).isEqualTo(region);
        assertThat(row.get(5, Integer.class)).isEqualTo(19_000);
        if (region != null) {
          assertThat(row.get(2, Integer.class)).isEqualTo(7);
          assertThat(row.get(3, String.class)).isEqualTo(NOTE);
        }
      }
      assertThat(file.lowerBounds().get(3)).isNotNull();
    }
  }

  private ConstantColumns constantsOf(StructLike partition, Set<Integer> keyFieldIds) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : planned) {
        if (Objects.equals(
            task.file().partition().get(0, String.class), partition.get(0, String.class))) {
          tasks.add(task);
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    FileGroup group =
        new FileGroup(
            0, table.spec().specId(), partition, "region=" + partition.get(0, String.class), tasks);
    return ConstantColumns.of(SCHEMA, table.spec(), group, keyFieldIds);
  }

  private PartitionData partition(String region) {
    PartitionData partition = new PartitionData(table.spec().partitionType());
    partition.set(0, region);
    return partition;
  }

  private static List<Record> rows(String region, int tenant, Random random, long firstId) {
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < ROWS_PER_FILE; index++) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      row.setField("id", firstId + index);
      row.setField("region", region);
      row.setField("tenant", tenant);
      row.setField("note", NOTE);
      row.setField("amount", random.nextInt(10) == 0 ? null : (long) random.nextInt(1_000));
      row.setField("day", java.time.LocalDate.ofEpochDay(19_000));
      rows.add(row);
    }
    return rows;
  }
}
