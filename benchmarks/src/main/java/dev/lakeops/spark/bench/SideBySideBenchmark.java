package dev.lakeops.spark.bench;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.spark.sql.SparkSession;

/**
 * Compacts two identical copies of one fragmented table, one with LakeOps ({@link TableCompactor},
 * 256 MB budget) and one with Spark's {@code rewrite_data_files} in a local[2] session, in this
 * JVM, and writes the comparison to {@code docs/benchmarks/binpack-<size>.md}.
 *
 * <p>Arguments: {@code [size] [work directory] [report directory]}, size one of 200mb (default),
 * 2gb or tiny. The generated source table is kept in the work directory and reused by later runs.
 * The system property {@code lakeops.benchmark.mode} picks what is compared: {@code binpack}
 * (default, this class), {@code sort} and/or {@code zorder} (comma-separated; {@link
 * SortSideBySide}).
 */
public final class SideBySideBenchmark {
  static final long TARGET_FILE_SIZE_BYTES = 128L * 1024 * 1024;
  static final ByteSize MEMORY_BUDGET = ByteSize.parse("256MB");
  static final TableIdentifier TABLE = TableIdentifier.of("db", "events");

  private SideBySideBenchmark() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    BenchmarkSize size = BenchmarkSize.parse(args.length > 0 ? args[0] : "200mb");
    String loadAtStart = ProcessMemory.loadAverage();
    Path work = Path.of(args.length > 1 ? args[1] : "target/benchmark").toAbsolutePath();
    Path reports = Path.of(args.length > 2 ? args[2] : "../docs/benchmarks").toAbsolutePath();
    Path run = work.resolve(size.label());
    List<String> modes = modes(System.getProperty("lakeops.benchmark.mode", "binpack"));
    List<BenchmarkSource> sources =
        BenchmarkSource.parseList(System.getProperty("lakeops.benchmark.source", "generator"));
    for (String mode : modes) {
      List<SourceComparison.Row> rows = new ArrayList<>();
      List<String> reportNames = new ArrayList<>();
      for (BenchmarkSource source : sources) {
        String name = mode + "-" + size.label() + source.reportSuffix() + ".md";
        reportNames.add(name);
        if (mode.equals("binpack")) {
          rows.add(binpack(size, source, run, reports, name, loadAtStart));
        } else if (mode.equals("deletes")) {
          rows.add(DeletesSideBySide.run(size, source, run, reports, name));
        } else {
          rows.add(SortSideBySide.run(size, source, run, reports, mode, name));
        }
      }
      if (rows.size() > 1) {
        SourceComparison.appendTo(reports.resolve(reportNames.get(0)), mode, rows);
      }
    }
  }

  private static List<String> modes(String text) {
    List<String> modes =
        Arrays.stream(text.split(","))
            .map(mode -> mode.trim().toLowerCase(Locale.ROOT))
            .filter(mode -> !mode.isEmpty())
            .toList();
    for (String mode : modes) {
      if (!List.of("binpack", "sort", "zorder", "deletes").contains(mode)) {
        throw new IllegalArgumentException(
            "Unknown benchmark mode '"
                + mode
                + "' in -Dlakeops.benchmark.mode: use binpack, sort, zorder, deletes or a"
                + " comma-separated list of them");
      }
    }
    return modes.isEmpty() ? List.of("binpack") : modes;
  }

  private static SourceComparison.Row binpack(
      BenchmarkSize size,
      BenchmarkSource source,
      Path run,
      Path reports,
      String name,
      String loadAtStart)
      throws IOException {

    Table sourceTable = sourceTable(run, size, source);
    TableState before = TableState.of(sourceTable);
    log("source: %s", before);

    deleteRecursively(run.resolve("lakeops"));
    deleteRecursively(run.resolve("spark"));
    Table lakeopsCopy = TableCopies.copy(sourceTable, catalog(run.resolve("lakeops")), TABLE);
    Table sparkCopy = TableCopies.copy(sourceTable, catalog(run.resolve("spark")), TABLE);
    log("copied to %s and %s", lakeopsCopy.location(), sparkCopy.location());

    PhaseMeasurement lakeops = runLakeOps(lakeopsCopy);
    PhaseMeasurement spark = runSpark(run.resolve("spark"));

    Table lakeopsAfter = catalog(run.resolve("lakeops")).loadTable(TABLE);
    Table sparkAfter = catalog(run.resolve("spark")).loadTable(TABLE);
    BenchmarkReport report =
        new BenchmarkReport(
            size,
            source,
            before,
            ReportCells.columns(sourceTable.schema()),
            TableState.of(lakeopsAfter),
            TableState.of(sparkAfter),
            lakeops,
            spark,
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory(),
            loadAtStart,
            ProcessMemory.loadAverage());
    ReportFiles.publish(
        reports,
        name,
        report.markdown(),
        report.fingerprintsMatch(),
        "Row fingerprints differ after compaction");
    deleteRecursively(run.resolve("lakeops"));
    deleteRecursively(run.resolve("spark"));
    return new SourceComparison.Row(
        source,
        before,
        lakeops.wall(),
        spark.wall(),
        lakeops.peakRssBytes(),
        lakeops.copiedBytes(),
        lakeops.decodedBytes(),
        name);
  }

  /**
   * The source table of {@code source} under {@code run}: reused when a complete one is there,
   * written otherwise.
   */
  static Table sourceTable(Path run, BenchmarkSize size, BenchmarkSource source) {
    return writeOrReuse(
        run.resolve(source == BenchmarkSource.GENERATOR ? "source" : "source-" + source.label()),
        size,
        source);
  }

  static Table writeOrReuse(Path warehouse, BenchmarkSize size, BenchmarkSource source) {
    HadoopCatalog catalog = catalog(warehouse);
    if (catalog.tableExists(TABLE)) {
      Table existing = catalog.loadTable(TABLE);
      if (existing.currentSnapshot() != null
          && Long.parseLong(existing.currentSnapshot().summary().get("total-data-files"))
              == size.files()) {
        log("reusing %s table %s", source.label(), existing.location());
        return existing;
      }
      if (source == BenchmarkSource.SPARK && SparkWrittenTable.resumable(existing, size)) {
        log("resuming %s table %s", source.label(), existing.location());
        SparkWrittenTable.create(warehouse, size);
        return catalog(warehouse).loadTable(TABLE);
      }
      deleteRecursively(warehouse);
      catalog = catalog(warehouse);
    }
    long started = System.nanoTime();
    Table table;
    if (size.wide() && source != BenchmarkSource.SPARK) {
      throw new IllegalArgumentException(
          "The "
              + size.label()
              + " table is written by Spark only: add -Dlakeops.benchmark.source=spark");
    }
    if (source == BenchmarkSource.SPARK) {
      SparkWrittenTable.create(warehouse, size);
      table = catalog(warehouse).loadTable(TABLE);
    } else {
      table =
          new DemoTableGenerator(catalog)
              .create(TABLE, 2, size.days(), size.files(), size.rowsPerFile(), 50);
    }
    log(
        "wrote %d files (%s) in %s",
        size.files(), source.label(), Duration.ofNanos(System.nanoTime() - started));
    return table;
  }

  private static PhaseMeasurement runLakeOps(Table table) {
    CompactionRequest request =
        CompactionRequest.builder()
            .options(Map.of("target-file-size-bytes", String.valueOf(TARGET_FILE_SIZE_BYTES)))
            .memoryBudget(MEMORY_BUDGET)
            .build();
    settle();
    String load = ProcessMemory.loadAverage();
    long started = System.nanoTime();
    CompactionResult result = new TableCompactor().compact(table, request);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    long peakRss = ProcessMemory.peakResidentBytes();
    log("lakeops: %s in %s", result, elapsed);
    return new PhaseMeasurement(
        elapsed,
        Duration.ZERO,
        peakRss,
        result.peakMemoryBytes(),
        result.copiedBytes(),
        result.decodedBytes(),
        result.fallbackReasons().isEmpty() ? "none" : result.fallbackReasons().toString(),
        load);
  }

  private static PhaseMeasurement runSpark(Path warehouse) {
    settle();
    String load = ProcessMemory.loadAverage();
    long startedSession = System.nanoTime();
    SparkSession spark =
        BenchmarkSparkSessions.withHadoopCatalog(
                BenchmarkSparkSessions.builder("lakeops-benchmark"), "bench", warehouse)
            .getOrCreate();
    Duration sessionStart = Duration.ofNanos(System.nanoTime() - startedSession);
    try {
      long started = System.nanoTime();
      spark
          .sql(
              "CALL bench.system.rewrite_data_files(table => 'bench.db.events', options => map("
                  + "'target-file-size-bytes', '"
                  + TARGET_FILE_SIZE_BYTES
                  + "'))")
          .collectAsList()
          .forEach(row -> log("spark: %s", row));
      Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
      return new PhaseMeasurement(
          elapsed, sessionStart, ProcessMemory.peakResidentBytes(), -1, -1, -1, "n/a", load);
    } finally {
      spark.stop();
    }
  }

  /** Collects garbage and resets the RSS high-water mark so the next phase measures itself. */
  private static void settle() {
    DirtyPages.flush();
    System.gc();
    ProcessMemory.resetPeak();
  }

  /**
   * The warehouse's catalog with the Hadoop configuration {@code bin/lakeops} gives its catalog.
   */
  static HadoopCatalog catalog(Path warehouse) {
    return new HadoopCatalog(CatalogConnector.hadoopConfiguration(), warehouse.toString());
  }

  /** Copies the tree under {@code from} to {@code to}, files with their attributes. */
  static void copyTree(Path from, Path to) {
    try {
      Files.walkFileTree(
          from,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes)
                throws IOException {
              Files.createDirectories(to.resolve(from.relativize(directory).toString()));
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.copy(
                  file,
                  to.resolve(from.relativize(file).toString()),
                  StandardCopyOption.COPY_ATTRIBUTES);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + from + " to " + to, e);
    }
  }

  static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + directory, e);
    }
  }

  static void log(String format, Object... args) {
    System.out.printf("[benchmark] " + format + "%n", args);
  }

  /** One compaction's figures. */
  record PhaseMeasurement(
      Duration wall,
      Duration sessionStart,
      long peakRssBytes,
      long enginePeakMemoryBytes,
      long copiedBytes,
      long decodedBytes,
      String fallbackReasons,
      String loadAtStart) {}

  /** Data and delete files, bytes and row fingerprint of a table's current snapshot. */
  record TableState(long dataFiles, long deleteFiles, long bytes, RowFingerprint fingerprint) {
    static TableState of(Table table) {
      Map<String, String> summary = table.currentSnapshot().summary();
      return new TableState(
          Long.parseLong(summary.get("total-data-files")),
          Long.parseLong(summary.getOrDefault("total-delete-files", "0")),
          Long.parseLong(summary.get("total-files-size")),
          RowFingerprint.of(table));
    }
  }
}
