package dev.lakeops.spark.bench;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.spark.bench.MaintenanceBenchmarkReport.EngineRun;
import dev.lakeops.spark.bench.MaintenanceBenchmarkReport.StepMeasurement;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * One engine's expiry and orphan removal on the restored table, in a JVM of its own so that its
 * heap limit and peak RSS are its alone. The parent ({@link MaintenanceSideBySideBenchmark}) starts
 * it and reads the line starting with {@link #RESULT_PREFIX}: {@code key=value} pairs.
 *
 * <p>Arguments: {@code lakeops|spark <warehouse> <expire-before epoch millis>}.
 */
public final class MaintenancePhase {
  static final String RESULT_PREFIX = "[phase] result ";
  static final int RETAIN_LAST = 10;
  static final Duration ORPHAN_AGE = Duration.ofDays(3);

  private MaintenancePhase() {}

  public static void main(String[] args) {
    String engine = args[0].toLowerCase(Locale.ROOT);
    Path warehouse = Path.of(args[1]);
    Instant expireBefore = Instant.ofEpochMilli(Long.parseLong(args[2]));
    EngineRun run =
        switch (engine) {
          case "lakeops" -> runLakeOps(warehouse, expireBefore);
          case "spark" -> runSpark(warehouse, expireBefore);
          default ->
              throw new IllegalArgumentException(
                  "Unknown engine '" + engine + "': use lakeops or spark");
        };
    System.out.println(RESULT_PREFIX + format(run));
    System.exit(0);
  }

  private static EngineRun runLakeOps(Path warehouse, Instant expireBefore) {
    Table table =
        new HadoopCatalog(new Configuration(), warehouse.toString())
            .loadTable(SnapshotHeavyTable.TABLE);
    settle();
    String load = ProcessMemory.loadAverage();
    long started = System.nanoTime();
    SnapshotExpiryResult expiry =
        new SnapshotExpirer()
            .expire(
                table,
                SnapshotExpiryOptions.builder()
                    .olderThan(expireBefore)
                    .retainLast(RETAIN_LAST)
                    .build());
    StepMeasurement expire =
        new StepMeasurement(
            Duration.ofNanos(System.nanoTime() - started),
            ProcessMemory.peakResidentBytes(),
            expiry.expiredSnapshotIds().size(),
            expiry.deletedFiles(),
            load);

    table.refresh();
    settle();
    load = ProcessMemory.loadAverage();
    started = System.nanoTime();
    OrphanRemovalResult orphans =
        new OrphanFileRemover()
            .remove(table, OrphanRemovalOptions.builder().olderThan(ORPHAN_AGE).build());
    StepMeasurement orphan =
        new StepMeasurement(
            Duration.ofNanos(System.nanoTime() - started),
            ProcessMemory.peakResidentBytes(),
            0,
            orphans.deletedFiles(),
            load);
    return new EngineRun(expire, orphan, Duration.ZERO);
  }

  private static EngineRun runSpark(Path warehouse, Instant expireBefore) {
    long startedSession = System.nanoTime();
    SparkSession spark =
        BenchmarkSparkSessions.withHadoopCatalog(
                BenchmarkSparkSessions.builder("lakeops-maintenance-benchmark")
                    .config("spark.sql.session.timeZone", "UTC"),
                "bench",
                warehouse)
            .getOrCreate();
    try {
      // Warm up: one query over the table's metadata, so the timed calls do not pay for the
      // session's first planning and code generation.
      long snapshotsBefore = snapshotCount(spark);
      Duration sessionStart = Duration.ofNanos(System.nanoTime() - startedSession);
      settle();
      String load = ProcessMemory.loadAverage();
      long started = System.nanoTime();
      List<Row> expiry =
          spark
              .sql(
                  "CALL bench.system.expire_snapshots(table => 'bench.db.events', older_than => TIMESTAMP '"
                      + sparkTimestamp(expireBefore)
                      + "', retain_last => "
                      + RETAIN_LAST
                      + ")")
              .collectAsList();
      Duration expireWall = Duration.ofNanos(System.nanoTime() - started);
      long peakRss = ProcessMemory.peakResidentBytes();
      long expiredFiles = 0;
      Row counts = expiry.get(0);
      for (int field = 0; field < counts.length(); field++) {
        expiredFiles += counts.getLong(field);
      }
      StepMeasurement expire =
          new StepMeasurement(
              expireWall, peakRss, snapshotsBefore - snapshotCount(spark), expiredFiles, load);

      settle();
      load = ProcessMemory.loadAverage();
      started = System.nanoTime();
      List<Row> orphans =
          spark
              .sql(
                  "CALL bench.system.remove_orphan_files(table => 'bench.db.events', older_than => TIMESTAMP '"
                      + sparkTimestamp(Instant.now().minus(ORPHAN_AGE))
                      + "')")
              .collectAsList();
      StepMeasurement orphan =
          new StepMeasurement(
              Duration.ofNanos(System.nanoTime() - started),
              ProcessMemory.peakResidentBytes(),
              0,
              orphans.size(),
              load);
      return new EngineRun(expire, orphan, sessionStart);
    } finally {
      spark.stop();
    }
  }

  private static long snapshotCount(SparkSession spark) {
    return spark.sql("SELECT count(*) FROM bench.db.events.snapshots").first().getLong(0);
  }

  private static String sparkTimestamp(Instant instant) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
        .withZone(ZoneOffset.UTC)
        .format(instant);
  }

  /** Collects garbage and resets the RSS high-water mark so the next step measures itself. */
  private static void settle() {
    System.gc();
    ProcessMemory.resetPeak();
  }

  static String format(EngineRun run) {
    return String.join(
        " ",
        "expire_nanos=" + run.expire().wall().toNanos(),
        "expire_rss=" + run.expire().peakRssBytes(),
        "expired_snapshots=" + run.expire().expiredSnapshots(),
        "expire_deleted=" + run.expire().deletedFiles(),
        "expire_load=" + run.expire().loadAtStart().replace(" ", ""),
        "orphan_nanos=" + run.orphans().wall().toNanos(),
        "orphan_rss=" + run.orphans().peakRssBytes(),
        "orphan_deleted=" + run.orphans().deletedFiles(),
        "orphan_load=" + run.orphans().loadAtStart().replace(" ", ""),
        "session_nanos=" + run.sessionStart().toNanos());
  }

  static EngineRun parse(String line) {
    Map<String, String> values = new HashMap<>();
    for (String pair : line.substring(RESULT_PREFIX.length()).trim().split(" ")) {
      int equals = pair.indexOf('=');
      values.put(pair.substring(0, equals), pair.substring(equals + 1));
    }
    StepMeasurement expire =
        new StepMeasurement(
            Duration.ofNanos(Long.parseLong(values.get("expire_nanos"))),
            Long.parseLong(values.get("expire_rss")),
            Long.parseLong(values.get("expired_snapshots")),
            Long.parseLong(values.get("expire_deleted")),
            values.get("expire_load").replace("/", " / "));
    StepMeasurement orphans =
        new StepMeasurement(
            Duration.ofNanos(Long.parseLong(values.get("orphan_nanos"))),
            Long.parseLong(values.get("orphan_rss")),
            0,
            Long.parseLong(values.get("orphan_deleted")),
            values.get("orphan_load").replace("/", " / "));
    return new EngineRun(
        expire, orphans, Duration.ofNanos(Long.parseLong(values.get("session_nanos"))));
  }
}
