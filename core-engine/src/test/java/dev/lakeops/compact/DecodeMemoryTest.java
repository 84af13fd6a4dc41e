package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoding paths stay inside the memory budget: reader row groups and writer buffers included.
 */
class DecodeMemoryTest {
  private static final Schema NESTED =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(
              2,
              "person",
              Types.StructType.of(
                  Types.NestedField.optional(3, "name", Types.StringType.get()),
                  Types.NestedField.optional(
                      4, "tags", Types.ListType.ofOptional(5, Types.StringType.get())))));
  private static final Schema FLAT =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "payload", Types.StringType.get()));

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @Test
  void nestedRowPathWritesSmallerRowGroupsToStayInsideASmallBudget() throws IOException {
    Table table = createTable(NESTED);
    Random random = new Random(11);
    for (int file = 0; file < 6; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < 6_000; row++) {
        rows.add(nestedRow(table.schema(), file * 6_000L + row, random));
      }
      TableFiles.append(table, null, rows);
    }
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .memoryBudget(ByteSize.parse("16MB"))
                    .options(
                        Map.of(
                            "decode-free-merge",
                            "false",
                            "max-concurrent-file-group-rewrites",
                            "1"))
                    .build());

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(result.peakMemoryBytes())
        .isPositive()
        .isLessThanOrEqualTo(ByteSize.parse("16MB").bytes());
    DataFile output = onlyDataFile(table);
    assertThat(output.recordCount()).isEqualTo(36_000);
    assertThat(output.splitOffsets()).as("row groups of the output").hasSizeGreaterThan(1);
  }

  @Test
  void inputRowGroupLargerThanTheShareFailsUpFrontAndLeavesTheTableUnchanged() {
    Table table = createTable(FLAT);
    Random random = new Random(3);
    TableFiles.append(table, null, flatRows(table.schema(), 0, 200_000, random));
    TableFiles.append(table, null, flatRows(table.schema(), 200_000, 100, random));
    long snapshot = table.currentSnapshot().snapshotId();

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(
                        table,
                        CompactionRequest.builder()
                            .memoryBudget(ByteSize.parse("16MB"))
                            .options(
                                Map.of(
                                    "decode-free-merge", "false",
                                    "max-concurrent-file-group-rewrites", "1",
                                    "rewrite-all", "true"))
                            .build()))
        .hasMessageContaining("reads Parquet row groups of up to")
        .hasMessageContaining("raise memory_budget");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  private Table createTable(Schema schema) {
    return catalog.createTable(
        TableIdentifier.of("db", "t"),
        schema,
        PartitionSpec.unpartitioned(),
        Map.of(TableProperties.FORMAT_VERSION, "2", TableProperties.PARQUET_COMPRESSION, "zstd"));
  }

  private static Record nestedRow(Schema schema, long id, Random random) {
    GenericRecord record = GenericRecord.create(schema);
    record.setField("id", id);
    GenericRecord person = GenericRecord.create(schema.findType("person").asStructType());
    person.setField("name", randomText(random, 300));
    person.setField("tags", List.of(randomText(random, 50), randomText(random, 50)));
    record.setField("person", id % 17 == 0 ? null : person);
    return record;
  }

  private static List<Record> flatRows(Schema schema, long firstId, int count, Random random) {
    List<Record> rows = new ArrayList<>();
    for (int row = 0; row < count; row++) {
      GenericRecord record = GenericRecord.create(schema);
      record.setField("id", firstId + row);
      record.setField("payload", randomText(random, 100));
      rows.add(record);
    }
    return rows;
  }

  private static String randomText(Random random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int index = 0; index < length; index++) {
      text.append((char) ('!' + random.nextInt(90)));
    }
    return text.toString();
  }

  private static DataFile onlyDataFile(Table table) throws IOException {
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      List<DataFile> files = new ArrayList<>();
      tasks.forEach(task -> files.add(task.file()));
      assertThat(files).hasSize(1);
      return files.get(0);
    }
  }
}
