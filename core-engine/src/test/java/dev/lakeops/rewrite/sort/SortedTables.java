package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.SortOrderComparators;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.Parquet;

/** Reads a table's data files one by one and checks the row order in and across them. */
final class SortedTables {
  private SortedTables() {}

  static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      tasks.forEach(task -> files.add(task.file().copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  static Map<String, List<DataFile>> byPartition(Table table, List<DataFile> files) {
    Map<String, List<DataFile>> partitions = new LinkedHashMap<>();
    for (DataFile file : files) {
      String key =
          file.specId() + "/" + table.specs().get(file.specId()).partitionToPath(file.partition());
      partitions.computeIfAbsent(key, ignored -> new ArrayList<>()).add(file);
    }
    return partitions;
  }

  /**
   * The rows of one data file, in file order, wrapped so transforms see Iceberg's internal values.
   */
  static List<StructLike> rows(Table table, DataFile file) {
    Schema schema = table.schema();
    List<StructLike> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        Parquet.read(table.io().newInputFile(file.location()))
            .project(schema)
            .createReaderFunc(fileSchema -> GenericParquetReaders.buildReader(schema, fileSchema))
            .build()) {
      for (Record record : records) {
        rows.add(new InternalRecordWrapper(schema.asStruct()).wrap(record));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /**
   * Checks, with Iceberg's own comparator for {@code order}, that every partition's files are each
   * sorted and that, taken in the order of their first rows, each file ends no later than the next
   * begins. Returns the number of rows checked.
   */
  static long assertSortedWithinPartitions(Table table, SortOrder order) {
    Comparator<StructLike> comparator = SortOrderComparators.forSchema(table.schema(), order);
    long checked = 0;
    for (List<DataFile> files : byPartition(table, dataFiles(table)).values()) {
      List<List<StructLike>> contents = new ArrayList<>();
      for (DataFile file : files) {
        List<StructLike> rows = rows(table, file);
        for (int row = 1; row < rows.size(); row++) {
          assertThat(comparator.compare(rows.get(row - 1), rows.get(row)))
              .as("row %d of %s follows row %d by %s", row, file.location(), row - 1, order)
              .isLessThanOrEqualTo(0);
        }
        checked += rows.size();
        if (!rows.isEmpty()) {
          contents.add(rows);
        }
      }
      contents.sort((left, right) -> comparator.compare(left.get(0), right.get(0)));
      for (int file = 1; file < contents.size(); file++) {
        List<StructLike> previous = contents.get(file - 1);
        assertThat(comparator.compare(previous.get(previous.size() - 1), contents.get(file).get(0)))
            .as("files of one partition do not interleave")
            .isLessThanOrEqualTo(0);
      }
    }
    return checked;
  }
}
