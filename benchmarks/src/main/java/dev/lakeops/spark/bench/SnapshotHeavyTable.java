package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import dev.lakeops.demo.DemoTableGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * A table with many snapshots and files for the maintenance benchmark, built once into a pristine
 * directory and restored byte for byte (modification times included) into the working warehouse
 * before each engine runs, so both engines start from the same table at the same paths.
 *
 * <p>Every commit adds {@code filesPerCommit} data files; every fourth commit is an overwrite that
 * also removes the files of the commit three before it, so expiry has unreachable files to delete.
 * Data files are small placeholders registered with metadata-only entries: expiry and orphan
 * removal read manifests and list directories, never data. All files are aged by ten days; {@code
 * oldOrphans} unreferenced files ten days old and {@code youngOrphans} one hour old are planted in
 * the data directories.
 */
final class SnapshotHeavyTable {
  static final TableIdentifier TABLE = TableIdentifier.of("db", "events");
  static final Duration AGE = Duration.ofDays(10);
  private static final int DAYS = 7;
  private static final int SNAPSHOTS_PER_TRANSACTION = 100;

  private final Path pristine;
  private final Path warehouse;
  private final int snapshots;
  private final int filesPerCommit;
  private final int oldOrphans;
  private final int youngOrphans;

  SnapshotHeavyTable(
      Path work, int snapshots, int filesPerCommit, int oldOrphans, int youngOrphans) {
    requireNonNull(work, "work is null");
    this.pristine = work.resolve("pristine");
    this.warehouse = work.resolve("warehouse");
    this.snapshots = snapshots;
    this.filesPerCommit = filesPerCommit;
    this.oldOrphans = oldOrphans;
    this.youngOrphans = youngOrphans;
  }

  Path warehouse() {
    return warehouse;
  }

  int snapshots() {
    return snapshots;
  }

  int dataFilesWritten() {
    return snapshots * filesPerCommit;
  }

  int oldOrphans() {
    return oldOrphans;
  }

  int youngOrphans() {
    return youngOrphans;
  }

  /** Builds the pristine copy unless a complete one from an earlier run is there. */
  Duration buildIfMissing() {
    Path marker = pristine.resolve("BUILT-" + snapshots + "x" + filesPerCommit);
    if (Files.exists(marker)) {
      return Duration.ZERO;
    }
    SideBySideBenchmark.deleteRecursively(pristine);
    SideBySideBenchmark.deleteRecursively(warehouse);
    long started = System.nanoTime();
    HadoopCatalog catalog = catalog(warehouse);
    catalog.createNamespace(Namespace.of("db"));
    Table table =
        catalog.createTable(
            TABLE,
            DemoTableGenerator.SCHEMA,
            PartitionSpec.builderFor(DemoTableGenerator.SCHEMA).identity("day").build(),
            Map.of(
                "format-version", "2",
                "write.metadata.delete-after-commit.enabled", "true",
                "write.metadata.previous-versions-max", "100"));
    commit(table);
    Path location = Path.of(table.location());
    Instant old = Instant.now().minus(AGE);
    setModifiedTimes(location, old);
    for (int orphan = 0; orphan < oldOrphans; orphan++) {
      plant(
          location.resolve(dataDirectory(orphan)).resolve("lost-old-" + orphan + ".parquet"), old);
    }
    Instant young = Instant.now().minus(Duration.ofHours(1));
    for (int orphan = 0; orphan < youngOrphans; orphan++) {
      plant(
          location.resolve(dataDirectory(orphan)).resolve("lost-young-" + orphan + ".parquet"),
          young);
    }
    SideBySideBenchmark.copyTree(warehouse, pristine);
    write(marker);
    return Duration.ofNanos(System.nanoTime() - started);
  }

  /** Replaces the working warehouse with the pristine copy. */
  void restore() {
    SideBySideBenchmark.deleteRecursively(warehouse);
    SideBySideBenchmark.copyTree(pristine, warehouse);
    try {
      Files.deleteIfExists(warehouse.resolve("BUILT-" + snapshots + "x" + filesPerCommit));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Table load() {
    return catalog(warehouse).loadTable(TABLE);
  }

  /** Paths of every file under the warehouse, relative to it, sorted. */
  Set<String> listFiles() {
    try (Stream<Path> paths = Files.walk(warehouse)) {
      Set<String> files = new TreeSet<>();
      paths
          .filter(Files::isRegularFile)
          .forEach(path -> files.add(warehouse.relativize(path).toString()));
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + warehouse, e);
    }
  }

  /**
   * Commits the snapshots in transactions of {@link #SNAPSHOTS_PER_TRANSACTION}: each operation in
   * a transaction is a snapshot of its own with its manifests and manifest list, but the table
   * metadata is written once per transaction, which keeps building thousands of snapshots fast.
   */
  private void commit(Table table) {
    Path data = Path.of(table.location()).resolve("data");
    List<List<DataFile>> commits = new ArrayList<>();
    Transaction transaction = null;
    for (int commit = 0; commit < snapshots; commit++) {
      if (transaction == null) {
        transaction = table.newTransaction();
      }
      List<DataFile> added = new ArrayList<>();
      for (int file = 0; file < filesPerCommit; file++) {
        added.add(placeholder(table, data, commit, file));
      }
      if (commit % 4 == 3) {
        OverwriteFiles overwrite = transaction.newOverwrite();
        commits.get(commit - 3).forEach(overwrite::deleteFile);
        added.forEach(overwrite::addFile);
        overwrite.commit();
        commits.set(commit - 3, List.of());
      } else {
        AppendFiles append = transaction.newAppend();
        added.forEach(append::appendFile);
        append.commit();
      }
      commits.add(added);
      if ((commit + 1) % SNAPSHOTS_PER_TRANSACTION == 0 || commit + 1 == snapshots) {
        transaction.commitTransaction();
        transaction = null;
      }
    }
  }

  private static DataFile placeholder(Table table, Path data, int commit, int file) {
    String day = day(commit * 31 + file);
    Path path = data.resolve("day=" + day).resolve(commit + "-" + file + ".parquet");
    try {
      Files.createDirectories(path.getParent());
      Files.write(path, new byte[128]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DataFiles.builder(table.spec())
        .withPath(path.toString())
        .withFormat(FileFormat.PARQUET)
        .withPartitionPath("day=" + day)
        .withFileSizeInBytes(128)
        .withRecordCount(1)
        .build();
  }

  private static String day(int index) {
    return "2026-11-0" + (index % DAYS + 1);
  }

  private static String dataDirectory(int index) {
    return "data/day=" + day(index);
  }

  private static void plant(Path path, Instant modified) {
    write(path);
    try {
      Files.setLastModifiedTime(path, FileTime.from(modified));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path path) {
    try {
      Files.createDirectories(path.getParent());
      Files.write(path, new byte[128]);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void setModifiedTimes(Path root, Instant modified) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
        Files.setLastModifiedTime(path, FileTime.from(modified));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static HadoopCatalog catalog(Path warehouse) {
    return new HadoopCatalog(new Configuration(), warehouse.toString());
  }
}
