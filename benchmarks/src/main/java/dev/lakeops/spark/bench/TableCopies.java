package dev.lakeops.spark.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Makes an identical copy of a table in another warehouse: the same data files, byte for byte,
 * copied into the new table's location and committed with the same metrics and partitions. Iceberg
 * metadata holds absolute paths, so copying a warehouse directory alone would leave the copy
 * pointing at the original's files.
 */
final class TableCopies {
  private TableCopies() {}

  static Table copy(Table source, Catalog targetCatalog, TableIdentifier identifier) {
    Table target =
        targetCatalog.createTable(identifier, source.schema(), source.spec(), source.properties());
    String sourceLocation = stripScheme(source.location());
    String targetLocation = stripScheme(target.location());
    AppendFiles append = target.newAppend();
    // Iceberg's scans leave out the files' column metrics unless asked: the copy must keep them
    try (CloseableIterable<FileScanTask> tasks =
        source.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        String path = stripScheme(file.location());
        Path copied = Path.of(targetLocation + path.substring(sourceLocation.length()));
        Files.createDirectories(copied.getParent());
        Files.copy(Path.of(path), copied, StandardCopyOption.REPLACE_EXISTING);
        append.appendFile(
            DataFiles.builder(target.spec())
                .copy(file)
                .withPath(copied.toUri().toString())
                .build());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + source.name() + " to " + targetLocation, e);
    }
    append.commit();
    DirtyPages.flush();
    return target;
  }

  private static String stripScheme(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)).toString() : location;
  }
}
