package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.rewrite.arrow.ArrowSchemas;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExternalSorterTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "name", Types.StringType.get()));
  private static final int ROWS = 60_000;
  private static final org.apache.arrow.vector.types.pojo.Schema BATCH_SCHEMA =
      SortKeys.withKeyColumn(ArrowSchemas.toArrow(SCHEMA));

  @TempDir Path spillDirectory;
  private RootAllocator root;
  private BufferAllocator runs;
  private BufferAllocator spill;

  @BeforeEach
  void createAllocators() {
    root = new RootAllocator(64L << 20);
    runs = root.newChildAllocator("sort-runs", 0, 1L << 20);
    spill = root.newChildAllocator("sort-spill", 0, 1L << 20);
  }

  @AfterEach
  void closeAllocatorsFailingOnLeaks() {
    spill.close();
    runs.close();
    root.close();
  }

  @Test
  void sortsInMemoryWithoutSpillingWhenRowsFit() throws IOException {
    try (BufferAllocator roomy = root.newChildAllocator("sort-runs-roomy", 0, 32L << 20);
        SpillFiles files = new SpillFiles(spillDirectory, "test");
        ExternalSorter sorter = sorter(roomy, files)) {
      List<Row> input = addRandomRows(sorter, 20_000);
      List<Row> output = new ArrayList<>();
      sorter.finish(collecting(output));

      assertThat(files.filesWritten()).isZero();
      assertThat(output).isEqualTo(expectedOrder(input));
    }
  }

  @Test
  void spillsRunsAndMergesThemInSeveralPassesWithinTheLimits() throws IOException {
    List<Row> output = new ArrayList<>();
    List<Row> input;
    int spilled;
    try (SpillFiles files = new SpillFiles(spillDirectory, "test");
        ExternalSorter sorter = sorter(runs, files).withMaxFanIn(3)) {
      input = addRandomRows(sorter, ROWS);
      sorter.finish(collecting(output));
      spilled = files.filesWritten();
      assertThat(files.spilledBytes()).isGreaterThan(1L << 20);
    }

    assertThat(spilled).as("runs plus intermediate merge runs").isGreaterThan(6);
    assertThat(output).isEqualTo(expectedOrder(input));
    assertThat(runs.getPeakMemoryAllocation()).isLessThanOrEqualTo(1L << 20);
    assertSpillDirectoryEmpty();
  }

  @Test
  void spillFilesAreDeletedWhenTheSinkFails() throws IOException {
    try (SpillFiles files = new SpillFiles(spillDirectory, "test");
        ExternalSorter sorter = sorter(runs, files)) {
      addRandomRows(sorter, ROWS);
      assertThat(files.filesWritten()).isPositive();
      int[] taken = {0};
      assertThatThrownBy(
              () ->
                  sorter.finish(
                      (source, row) -> {
                        if (++taken[0] == 1000) {
                          throw new IOException("disk full");
                        }
                      }))
          .isInstanceOf(IOException.class)
          .hasMessage("disk full");
    }
    assertSpillDirectoryEmpty();
  }

  private ExternalSorter sorter(BufferAllocator runAllocator, SpillFiles files) {
    SortOrder order = SortOrderParser.parse(SCHEMA, "name DESC NULLS LAST, id");
    return new ExternalSorter(
        BATCH_SCHEMA,
        new OrderKeyEncoder(SCHEMA, order),
        runAllocator,
        runAllocator.getLimit(),
        spill,
        files);
  }

  /** Adds random rows in batches of 1,000 (a batch may be smaller than the sorter's maximum). */
  private static List<Row> addRandomRows(ExternalSorter sorter, int count) throws IOException {
    Random random = new Random(17);
    List<Row> rows = new ArrayList<>();
    VectorSchemaRoot batch = null;
    for (int index = 0; index < count; index++) {
      String name =
          random.nextInt(20) == 0
              ? null
              : "name-" + random.nextInt(5000) + "-" + "x".repeat(random.nextInt(8));
      Row row = new Row(random.nextLong(), name);
      if (batch == null) {
        batch = VectorSchemaRoot.create(BATCH_SCHEMA, sorter.batchAllocator());
      }
      int position = batch.getRowCount();
      ((BigIntVector) batch.getVector("id")).setSafe(position, row.id());
      VarCharVector names = (VarCharVector) batch.getVector("name");
      if (name == null) {
        names.setNull(position);
      } else {
        names.setSafe(position, name.getBytes(StandardCharsets.UTF_8));
      }
      batch.setRowCount(position + 1);
      rows.add(row);
      if (batch.getRowCount() == 1000) {
        sorter.add(batch);
        batch = null;
      }
    }
    if (batch != null) {
      sorter.add(batch);
    }
    return rows;
  }

  private static List<Row> expectedOrder(List<Row> input) {
    Comparator<String> names = Comparator.nullsLast(Comparator.<String>naturalOrder().reversed());
    List<Row> sorted = new ArrayList<>(input);
    sorted.sort(Comparator.comparing(Row::name, names).thenComparingLong(Row::id));
    return sorted;
  }

  private static RowSink collecting(List<Row> output) {
    return (SourceColumns columns, int row) -> {
      VectorSchemaRoot source = columns.batch();
      VarCharVector names = (VarCharVector) source.getVector("name");
      output.add(
          new Row(
              ((BigIntVector) source.getVector("id")).get(row),
              names.isNull(row) ? null : names.getObject(row).toString()));
    };
  }

  private void assertSpillDirectoryEmpty() throws IOException {
    try (Stream<Path> left = Files.list(spillDirectory)) {
      assertThat(left).isEmpty();
    }
  }

  private record Row(long id, String name) {}
}
