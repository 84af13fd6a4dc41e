package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.preciseSeconds;
import static dev.lakeops.spark.bench.ReportCells.row;
import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** The maintenance benchmark's Markdown report. */
record MaintenanceBenchmarkReport(
    int snapshots,
    int dataFilesWritten,
    int oldOrphans,
    int youngOrphans,
    int filesBefore,
    EngineRun lakeops,
    EngineRun spark,
    int lakeopsFilesAfter,
    int sparkFilesAfter,
    boolean sameFilesLeft,
    int processors,
    String lakeopsHeap,
    String sparkHeap,
    String loadAtStart,
    String loadAtEnd) {
  MaintenanceBenchmarkReport {
    requireNonNull(lakeops, "lakeops is null");
    requireNonNull(spark, "spark is null");
    requireNonNull(loadAtStart, "loadAtStart is null");
    requireNonNull(loadAtEnd, "loadAtEnd is null");
  }

  /** One step's figures: wall time, the JVM's peak RSS, snapshots expired and files deleted. */
  record StepMeasurement(
      Duration wall,
      long peakRssBytes,
      long expiredSnapshots,
      long deletedFiles,
      String loadAtStart) {
    StepMeasurement {
      requireNonNull(wall, "wall is null");
      requireNonNull(loadAtStart, "loadAtStart is null");
    }
  }

  /** Both steps of one engine, and the Spark session start (zero for LakeOps). */
  record EngineRun(StepMeasurement expire, StepMeasurement orphans, Duration sessionStart) {
    EngineRun {
      requireNonNull(expire, "expire is null");
      requireNonNull(orphans, "orphans is null");
      requireNonNull(sessionStart, "sessionStart is null");
    }
  }

  String markdown() {
    StringBuilder text = new StringBuilder();
    text.append(
            "# Maintenance side by side: LakeOps vs Spark expire_snapshots / remove_orphan_files (")
        .append(format("%,d", snapshots))
        .append(" snapshots)\n\n");
    text.append(
        format(
            "Measured %s on %d processors (load average 1/5/15 min: %s at the start, %s at the end);"
                + " each engine in a JVM of its own (LakeOps `%s`, Spark `%s`). The table: Iceberg format v2, partitioned by day over 7 days,"
                + " %,d snapshots, each adding 10 data files (%,d in all); every fourth snapshot is an"
                + " overwrite that also removes the files of the snapshot three before it. %,d"
                + " unreferenced files ten days old and %,d one hour old are planted in the data"
                + " directories; %,d files under the table in all. Each engine starts from the same"
                + " restored copy: expire snapshots older than the run's start, retaining the last 10,"
                + " then remove unreferenced files older than 3 days.\n\n",
            LocalDate.now(ZoneOffset.UTC),
            processors,
            loadAtStart,
            loadAtEnd,
            lakeopsHeap,
            sparkHeap,
            snapshots,
            dataFilesWritten,
            oldOrphans,
            youngOrphans,
            filesBefore));
    text.append("| | LakeOps | Spark (local[2]) |\n");
    text.append("|---|---|---|\n");
    row(
        text,
        "expire: wall time",
        preciseSeconds(lakeops.expire().wall()),
        preciseSeconds(spark.expire().wall()));
    row(
        text,
        "expire: snapshots expired",
        count(lakeops.expire().expiredSnapshots()),
        count(spark.expire().expiredSnapshots()));
    row(
        text,
        "expire: files deleted",
        count(lakeops.expire().deletedFiles()),
        count(spark.expire().deletedFiles()));
    row(
        text,
        "expire: JVM peak RSS (VmHWM)",
        mib(lakeops.expire().peakRssBytes()),
        mib(spark.expire().peakRssBytes()));
    row(
        text,
        "expire: load average at start",
        lakeops.expire().loadAtStart(),
        spark.expire().loadAtStart());
    row(
        text,
        "orphans: wall time",
        preciseSeconds(lakeops.orphans().wall()),
        preciseSeconds(spark.orphans().wall()));
    row(
        text,
        "orphans: files deleted",
        count(lakeops.orphans().deletedFiles()),
        count(spark.orphans().deletedFiles()));
    row(
        text,
        "orphans: JVM peak RSS (VmHWM)",
        mib(lakeops.orphans().peakRssBytes()),
        mib(spark.orphans().peakRssBytes()));
    row(
        text,
        "orphans: load average at start",
        lakeops.orphans().loadAtStart(),
        spark.orphans().loadAtStart());
    row(text, "Spark session start (not in wall times)", "—", preciseSeconds(spark.sessionStart()));
    row(text, "files left under the table", count(lakeopsFilesAfter), count(sparkFilesAfter));
    text.append("\n");
    text.append(
        format(
            "**Ratio, expire_snapshots: Spark / LakeOps = %.2f×**\n\n",
            ratio(spark.expire(), lakeops.expire())));
    text.append(
        format(
            "**Ratio, remove_orphan_files: Spark / LakeOps = %.2f×**\n\n",
            ratio(spark.orphans(), lakeops.orphans())));
    text.append(
        "Both engines left "
            + (sameFilesLeft ? "exactly the same files" : "**DIFFERENT files**")
            + " under the table (compared path by path). Spark's expired-file count adds up the"
            + " procedure's deleted_*_count columns (data, delete, manifest, manifest-list and"
            + " statistics files), as does LakeOps's. VmHWM is reset after a GC before each step, so"
            + " each figure is that step's peak of its engine's JVM. Spark's session start and one warm-up"
            + " query over the table's `snapshots` metadata table are outside its wall times. Data files are 128-byte placeholders:"
            + " neither operation reads data.\n\n");
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark.maintenance="
            + snapshots
            + "`\n");
    return text.toString();
  }

  private static double ratio(StepMeasurement spark, StepMeasurement lakeops) {
    return spark.wall().toNanos() / (double) Math.max(1, lakeops.wall().toNanos());
  }

  private static String count(long value) {
    return format("%,d", value);
  }
}
