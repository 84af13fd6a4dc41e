package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.deletes.PositionDeleteWriters;
import dev.lakeops.demo.DemoTableGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The training run of the class-data sharing archive (docs/jvm.md, "Start-up"): started with {@code
 * -XX:ArchiveClassesAtExit}, it runs the commands small jobs run most (health, a dry run, a binpack
 * compaction with {@code --json} and its run recorded in the default store) on a small demo table
 * in a temporary warehouse, then a compaction of a second one whose files carry position deletes
 * (the decoding path), so that the archive holds the classes they load. The classes an object-store
 * compaction loads besides (the AWS SDK, its HTTP client; {@code object-store-classes.txt}) are
 * loaded without being initialised or used: a training run against an S3 server would need one, and
 * the JDK's dynamic archive fails on the SDK's lambdas. The build runs it at package time; {@code
 * bin/lakeops} runs it when the archive is missing or older than the jar.
 */
public final class ClassDataTraining {
  private static final String OBJECT_STORE_CLASSES = "object-store-classes.txt";
  private static final TableIdentifier TABLE = TableIdentifier.of("demo", "events");
  private static final TableIdentifier WITH_DELETES =
      TableIdentifier.of("demo", "events_with_deletes");

  private ClassDataTraining() {}

  /** Exits non-zero when a command failed. */
  public static void main(String[] args) throws IOException {
    Path directory = Files.createTempDirectory("lakeops-class-data-training");
    int failures;
    try {
      failures = train(directory.toString());
    } finally {
      deleteRecursively(directory);
    }
    System.exit(failures == 0 ? 0 : 1);
  }

  private static int train(String warehouse) {
    DemoTableGenerator generator =
        new DemoTableGenerator(
            CatalogConnector.connect(
                CatalogSettings.from(Optional.empty(), Optional.of(Path.of(warehouse)), Map.of())));
    generator.create(TABLE, 2, 4, 40, 200, 10);
    deleteFirstRowOfEveryFile(generator.create(WITH_DELETES, 2, 4, 20, 200, 10));
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    int failures = 0;
    try {
      String table = TABLE.toString();
      failures += Main.run("health", table, "--warehouse", warehouse, "--json");
      failures += Main.run("compact", table, "--warehouse", warehouse, "--dry-run");
      failures += Main.run("compact", table, "--warehouse", warehouse, "--json");
      failures += Main.run("runs", "--warehouse", warehouse, "--json");
      // position deletes send every group down the decoding path
      failures += Main.run("compact", WITH_DELETES.toString(), "--warehouse", warehouse, "--json");
    } finally {
      System.setOut(stdout);
    }
    loadObjectStoreClasses();
    return failures;
  }

  /** Loads every class the list names that is on the class path, initialising none. */
  private static void loadObjectStoreClasses() {
    ClassLoader loader = ClassDataTraining.class.getClassLoader();
    try (InputStream in = ClassDataTraining.class.getResourceAsStream(OBJECT_STORE_CLASSES)) {
      if (in == null) {
        return;
      }
      new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .map(String::strip)
          .filter(line -> !line.isEmpty() && !line.startsWith("#"))
          .forEach(name -> loadIfPresent(name, loader));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + OBJECT_STORE_CLASSES, e);
    }
  }

  private static void loadIfPresent(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      // a class of another version of a library, or one that cannot load here: not archived
    }
  }

  /** Commits one position-delete file per data file, deleting its first row. */
  private static void deleteFirstRowOfEveryFile(Table table) {
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 1, 1).format(FileFormat.PARQUET).build();
    RowDelta delta = table.newRowDelta();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        PositionDeleteWriter<Record> writer =
            PositionDeleteWriters.open(table, outputs, task.spec(), task.file().partition());
        try (writer) {
          writer.write(PositionDelete.<Record>create().set(task.file().location(), 0L, null));
        }
        delta.addDeletes(writer.toDeleteFile());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the training run's position deletes", e);
    }
    delta.commit();
  }

  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
