package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * A table of three data files in one partition, for comparing the delete readers with Iceberg's own
 * delete loader position by position.
 */
record DeleteReadFixture(Table table, List<DataFile> dataFiles, int rowsPerFile) {
  private static final int FILES = 3;

  DeleteReadFixture {
    requireNonNull(table, "table is null");
    dataFiles = List.copyOf(dataFiles);
  }

  /** Creates table {@code t} of {@code formatVersion} under {@code warehouse}. */
  static DeleteReadFixture create(Path warehouse, int formatVersion, int rowsPerFile) {
    Table table =
        SimpleTables.create(
            new HadoopCatalog(new Configuration(), warehouse.toString()),
            "t",
            formatVersion,
            Map.of());
    List<DataFile> files = new ArrayList<>();
    for (int file = 0; file < FILES; file++) {
      files.add(
          TableFiles.append(
              table,
              SimpleTables.partition(table, 1),
              SimpleTables.rows(table.schema(), (long) file * rowsPerFile, rowsPerFile, 1)));
    }
    return new DeleteReadFixture(table, files, rowsPerFile);
  }

  DataFile dataFile(int index) {
    return dataFiles.get(index);
  }

  /** The positions of a data file that {@code index} says are deleted. */
  TreeSet<Long> positions(PositionDeleteIndex index) {
    TreeSet<Long> positions = new TreeSet<>();
    for (long position = 0; position < rowsPerFile; position++) {
      if (index.isDeleted(position)) {
        positions.add(position);
      }
    }
    return positions;
  }

  /**
   * The deleted positions of {@code task}'s data file as Iceberg's own delete loader finds them.
   */
  TreeSet<Long> icebergPositions(FileScanTask task) {
    if (task.deletes().isEmpty()) {
      return new TreeSet<>();
    }
    return positions(
        new GenericDeleteFilter(table.io(), task, table.schema(), table.schema())
            .deletedRowPositions());
  }
}
