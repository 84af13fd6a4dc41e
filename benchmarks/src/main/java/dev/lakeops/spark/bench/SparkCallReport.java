package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.afterRows;
import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.row;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static dev.lakeops.spark.bench.ReportCells.throughput;
import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;

/** The markdown report of {@link SparkCallBenchmark}. */
record SparkCallReport(
    BenchmarkSize size,
    TableState before,
    TableState lakeopsAfter,
    TableState sparkAfter,
    Phase lakeops,
    Phase spark,
    int processors,
    long maxHeapBytes,
    String loadAtStart,
    String loadAtEnd) {
  SparkCallReport {
    requireNonNull(size, "size is null");
    requireNonNull(before, "before is null");
    requireNonNull(lakeopsAfter, "lakeopsAfter is null");
    requireNonNull(sparkAfter, "sparkAfter is null");
    requireNonNull(lakeops, "lakeops is null");
    requireNonNull(spark, "spark is null");
    requireNonNull(loadAtStart, "loadAtStart is null");
    requireNonNull(loadAtEnd, "loadAtEnd is null");
  }

  /**
   * One CALL: its text, wall time, the engine's own time when the result reports it ({@code
   * seconds} of lakeops.compact), the JVM's peak RSS while it ran, and its result row.
   */
  record Phase(
      String sql,
      Duration wall,
      Optional<Duration> engineTime,
      long peakRssBytes,
      String loadAtStart,
      String resultRow) {
    Phase {
      requireNonNull(sql, "sql is null");
      requireNonNull(wall, "wall is null");
      requireNonNull(engineTime, "engineTime is null");
      requireNonNull(loadAtStart, "loadAtStart is null");
      requireNonNull(resultRow, "resultRow is null");
    }
  }

  boolean fingerprintsMatch() {
    return before.fingerprint().equals(lakeopsAfter.fingerprint())
        && before.fingerprint().equals(sparkAfter.fingerprint());
  }

  double ratio() {
    return spark.wall().toNanos() / (double) Math.max(1, lakeops.wall().toNanos());
  }

  String markdown() {
    StringBuilder text = new StringBuilder();
    text.append("# In one Spark session: CALL lakeops.compact vs CALL rewrite_data_files (")
        .append(size.label())
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on %d processors (load average 1/5/15 min: %s at the start, %s at the end), one"
                + " JVM with one local[2] Spark session (max heap %s). Source table: %,d Parquet files, %s,"
                + " %,d rows, %s, written by Iceberg's generic Parquet writer. Two identical copies (same"
                + " files byte for byte) sit in two Iceberg hadoop catalogs of the session, `lk` and `sp`;"
                + " both are compacted to target-file-size-bytes = %s.\n\n",
            LocalDate.now(ZoneOffset.UTC),
            processors,
            loadAtStart,
            loadAtEnd,
            mib(maxHeapBytes),
            before.dataFiles(),
            mib(before.bytes()),
            before.fingerprint().rowCount(),
            size.days() > 0 ? "partitioned by day over " + size.days() + " days" : "unpartitioned",
            mib(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)));
    text.append(
        "| | `CALL lakeops.compact` (driver, 256 MB budget) | `CALL sp.system.rewrite_data_files` (local[2]) |\n");
    text.append("|---|---|---|\n");
    row(text, "wall time of the CALL", seconds(lakeops.wall()), seconds(spark.wall()));
    row(
        text,
        "of which the engine's own time",
        lakeops.engineTime().map(ReportCells::seconds).orElse("n/a") + " (`seconds` of the result)",
        spark.engineTime().map(ReportCells::seconds).orElse("n/a"));
    row(
        text,
        "machine load average when the CALL started",
        lakeops.loadAtStart(),
        spark.loadAtStart());
    row(
        text,
        "throughput (input MiB/s)",
        format("%.1f", throughput(before.bytes(), lakeops.wall())),
        format("%.1f", throughput(before.bytes(), spark.wall())));
    row(
        text,
        "JVM peak RSS during the CALL (VmHWM)",
        mib(lakeops.peakRssBytes()),
        mib(spark.peakRssBytes()));
    afterRows(text, before, lakeopsAfter, sparkAfter);
    row(text, "result row", "`" + lakeops.resultRow() + "`", "`" + spark.resultRow() + "`");
    text.append("\n");
    text.append(
        format(
            "**Ratio: rewrite_data_files wall time / lakeops.compact wall time = %.2f×**\n\n",
            ratio()));
    text.append(
        "Notes: the calls ran one after the other in the same session, `lakeops.compact` first; the session"
            + " was started and warmed up (SELECT 1, DESCRIBE of both tables, SHOW PROCEDURES) before either, so"
            + " neither pays the first statement's parser and analyzer start-up. The fingerprint is the row count and the sum of a 64-bit hash of"
            + " every row over all columns (`dev.lakeops.verify.RowFingerprint`). VmHWM is reset after a GC"
            + " before each call.\n\n");
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark.spark-call="
            + size.label()
            + "`\n");
    return text.toString();
  }
}
