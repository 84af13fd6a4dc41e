package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;

/**
 * An identical copy of a table on the S3 server for one engine: every data file copied object for
 * object on the server (the same bytes), committed to a new table in another catalog with the same
 * schema, partition spec, properties, metrics and partitions, in one append.
 */
final class ObjectStoreTableCopies {
  private ObjectStoreTableCopies() {}

  static Table copy(Table source, Catalog target, ObjectStoreServer server) {
    if (target.tableExists(SideBySideBenchmark.TABLE)) {
      target.dropTable(SideBySideBenchmark.TABLE, true);
    }
    Table copy =
        target.createTable(
            SideBySideBenchmark.TABLE, source.schema(), source.spec(), source.properties());
    String sourceLocation = source.location();
    String targetLocation = copy.location();
    AppendFiles append = copy.newAppend();
    // Iceberg's scans leave out the files' column metrics unless asked: the copy must keep them
    try (CloseableIterable<FileScanTask> tasks =
        source.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        String location = file.location();
        if (!location.startsWith(sourceLocation)) {
          throw new IllegalStateException(
              location + " lies outside its table's location " + sourceLocation);
        }
        String copied = targetLocation + location.substring(sourceLocation.length());
        server.copy(location, copied);
        append.appendFile(DataFiles.builder(copy.spec()).copy(file).withPath(copied).build());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list the files of " + source.name(), e);
    }
    append.commit();
    return copy;
  }
}
