package dev.lakeops.spark.bench;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.spark.bench.MaintenanceBenchmarkReport.EngineRun;
import dev.lakeops.spark.bench.MaintenanceBenchmarkReport.StepMeasurement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Expires snapshots and removes orphan files on two identical restorations of one snapshot-heavy
 * table, once with LakeOps ({@link SnapshotExpirer}, {@link OrphanFileRemover}) and once with
 * Spark's {@code expire_snapshots} and {@code remove_orphan_files} procedures in a local[2] session,
 * in this JVM, and writes the comparison to {@code docs/benchmarks/maintenance-<snapshots>.md}.
 *
 * <p>Arguments: {@code [snapshots] [files per commit] [work directory] [report directory]}; the
 * issue's figure is 2,000 snapshots and 20,000 files ({@code 2000 10}). Both engines get the same
 * requests: expire every snapshot older than the run's start while retaining the last 10, then
 * remove unreferenced files older than 3 days. Afterwards the files left under the table must be
 * the same for both engines.
 */
public final class MaintenanceSideBySideBenchmark {
  private static final int RETAIN_LAST = 10;
  private static final Duration ORPHAN_AGE = Duration.ofDays(3);

  private MaintenanceSideBySideBenchmark() {}

  public static void main(String[] args) throws IOException {
    int snapshots = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int filesPerCommit = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Path work = Path.of(args.length > 2 ? args[2] : "target/benchmark").toAbsolutePath()
        .resolve("maintenance-" + snapshots + "x" + filesPerCommit);
    Path reports = Path.of(args.length > 3 ? args[3] : "../docs/benchmarks").toAbsolutePath();
    String loadAtStart = ProcessMemory.loadAverage();

    SnapshotHeavyTable table = new SnapshotHeavyTable(work, snapshots, filesPerCommit, 1_000, 100);
    Duration build = table.buildIfMissing();
    log("table ready (built in %s) at %s", build, table.warehouse());

    table.restore();
    Instant expireBefore = Instant.now();
    Set<String> filesBefore = table.listFiles();
    EngineRun lakeops = runLakeOps(table, expireBefore);
    Set<String> lakeopsFiles = table.listFiles();

    table.restore();
    EngineRun spark = runSpark(table, expireBefore);
    Set<String> sparkFiles = table.listFiles();

    MaintenanceBenchmarkReport report =
        new MaintenanceBenchmarkReport(
            snapshots,
            table.dataFilesWritten(),
            table.oldOrphans(),
            table.youngOrphans(),
            filesBefore.size(),
            lakeops,
            spark,
            lakeopsFiles.size(),
            sparkFiles.size(),
            lakeopsFiles.equals(sparkFiles),
            Runtime.getRuntime().availableProcessors(),
            Runtime.getRuntime().maxMemory(),
            loadAtStart,
            ProcessMemory.loadAverage());
    Files.createDirectories(reports);
    Path file = reports.resolve("maintenance-" + snapshots + ".md");
    Files.writeString(file, report.markdown());
    System.out.println(report.markdown());
    log("report written to %s", file);
    if (!report.sameFilesLeft()) {
      throw new IllegalStateException("The engines left different files behind: see " + file);
    }
  }

  private static EngineRun runLakeOps(SnapshotHeavyTable heavyTable, Instant expireBefore) {
    Table table = heavyTable.load();
    settle();
    String load = ProcessMemory.loadAverage();
    long started = System.nanoTime();
    SnapshotExpiryResult expiry =
        new SnapshotExpirer()
            .expire(table, SnapshotExpiryOptions.builder().olderThan(expireBefore).retainLast(RETAIN_LAST).build());
    StepMeasurement expire =
        new StepMeasurement(
            Duration.ofNanos(System.nanoTime() - started),
            ProcessMemory.peakResidentBytes(),
            expiry.expiredSnapshotIds().size(),
            expiry.deletedFiles(),
            load);
    log("lakeops expire: %s", expiry);

    table.refresh();
    settle();
    load = ProcessMemory.loadAverage();
    started = System.nanoTime();
    OrphanRemovalResult orphans =
        new OrphanFileRemover().remove(table, OrphanRemovalOptions.builder().olderThan(ORPHAN_AGE).build());
    StepMeasurement orphan =
        new StepMeasurement(
            Duration.ofNanos(System.nanoTime() - started),
            ProcessMemory.peakResidentBytes(),
            0,
            orphans.deletedFiles(),
            load);
    log("lakeops orphans: listed %d, referenced %d, deleted %d in %s", orphans.listedFiles(),
        orphans.referencedFiles(), orphans.deletedFiles(), orphans.elapsed());
    return new EngineRun(expire, orphan, Duration.ZERO);
  }

  private static EngineRun runSpark(SnapshotHeavyTable heavyTable, Instant expireBefore) {
    settle();
    long startedSession = System.nanoTime();
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("lakeops-maintenance-benchmark")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            .config("spark.sql.catalog.bench", "org.apache.iceberg.spark.SparkCatalog")
            .config("spark.sql.catalog.bench.type", "hadoop")
            .config("spark.sql.catalog.bench.warehouse", heavyTable.warehouse().toString())
            .getOrCreate();
    Duration sessionStart = Duration.ofNanos(System.nanoTime() - startedSession);
    try {
      // Warm up: one query over the table's metadata, so the timed calls do not pay for the
      // session's first planning and code generation.
      spark.sql("SELECT count(*) FROM bench.db.events.snapshots").collectAsList();
      settle();
      String load = ProcessMemory.loadAverage();
      long started = System.nanoTime();
      List<Row> expiry =
          spark
              .sql("CALL bench.system.expire_snapshots(table => 'bench.db.events', older_than => TIMESTAMP '"
                  + sparkTimestamp(expireBefore) + "', retain_last => " + RETAIN_LAST + ")")
              .collectAsList();
      Duration expireWall = Duration.ofNanos(System.nanoTime() - started);
      long expiredFiles = 0;
      Row counts = expiry.get(0);
      for (int field = 0; field < counts.length(); field++) {
        expiredFiles += counts.getLong(field);
      }
      log("spark expire: %s", counts);
      long remaining = spark.sql("SELECT count(*) FROM bench.db.events.snapshots").first().getLong(0);
      StepMeasurement expire =
          new StepMeasurement(
              expireWall,
              ProcessMemory.peakResidentBytes(),
              heavyTable.snapshots() - remaining,
              expiredFiles,
              load);

      settle();
      load = ProcessMemory.loadAverage();
      started = System.nanoTime();
      List<Row> orphans =
          spark
              .sql("CALL bench.system.remove_orphan_files(table => 'bench.db.events', older_than => TIMESTAMP '"
                  + sparkTimestamp(Instant.now().minus(ORPHAN_AGE)) + "')")
              .collectAsList();
      StepMeasurement orphan =
          new StepMeasurement(
              Duration.ofNanos(System.nanoTime() - started),
              ProcessMemory.peakResidentBytes(),
              0,
              orphans.size(),
              load);
      log("spark orphans: deleted %d", orphans.size());
      return new EngineRun(expire, orphan, sessionStart);
    } finally {
      spark.stop();
    }
  }

  private static String sparkTimestamp(Instant instant) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC).format(instant);
  }

  /** Collects garbage and resets the RSS high-water mark so the next step measures itself. */
  private static void settle() {
    System.gc();
    ProcessMemory.resetPeak();
  }

  static void log(String format, Object... args) {
    System.out.printf("[benchmark] " + format + "%n", args);
  }
}
