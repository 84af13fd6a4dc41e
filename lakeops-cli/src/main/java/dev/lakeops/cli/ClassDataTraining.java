package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.demo.DemoTableGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The training run of the class-data sharing archive (docs/jvm.md, "Start-up"): started with {@code
 * -XX:ArchiveClassesAtExit}, it runs the commands small jobs run most (health, a dry run, a binpack
 * compaction with {@code --json} and its run recorded in the default store) on a small demo table
 * in a temporary warehouse, so that the archive holds the classes they load. The build runs it at
 * package time; {@code bin/lakeops} runs it when the archive is missing or older than the jar.
 */
public final class ClassDataTraining {
  private static final TableIdentifier TABLE = TableIdentifier.of("demo", "events");

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
    new DemoTableGenerator(
            CatalogConnector.connect(
                CatalogSettings.from(Optional.empty(), Optional.of(Path.of(warehouse)), Map.of())))
        .create(TABLE, 2, 4, 40, 200, 10);
    PrintStream stdout = System.out;
    System.setOut(new PrintStream(OutputStream.nullOutputStream()));
    int failures = 0;
    try {
      String table = TABLE.toString();
      failures += Main.run("health", table, "--warehouse", warehouse, "--json");
      failures += Main.run("compact", table, "--warehouse", warehouse, "--dry-run");
      failures += Main.run("compact", table, "--warehouse", warehouse, "--json");
      failures += Main.run("runs", "--warehouse", warehouse, "--json");
    } finally {
      System.setOut(stdout);
    }
    return failures;
  }

  private static void deleteRecursively(Path directory) throws IOException {
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
