package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.afterRows;
import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.row;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static dev.lakeops.spark.bench.ReportCells.throughput;
import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.PhaseMeasurement;
import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** The benchmark's Markdown report. */
record BenchmarkReport(
    BenchmarkSize size,
    BenchmarkSource source,
    TableState before,
    String columns,
    TableState lakeopsAfter,
    TableState sparkAfter,
    PhaseMeasurement lakeops,
    PhaseMeasurement spark,
    int processors,
    long maxHeapBytes,
    String loadAtStart,
    String loadAtEnd) {
  BenchmarkReport {
    requireNonNull(size, "size is null");
    requireNonNull(source, "source is null");
    requireNonNull(before, "before is null");
    requireNonNull(columns, "columns is null");
    requireNonNull(lakeopsAfter, "lakeopsAfter is null");
    requireNonNull(sparkAfter, "sparkAfter is null");
    requireNonNull(lakeops, "lakeops is null");
    requireNonNull(spark, "spark is null");
    requireNonNull(loadAtStart, "loadAtStart is null");
    requireNonNull(loadAtEnd, "loadAtEnd is null");
  }

  boolean fingerprintsMatch() {
    return before.fingerprint().equals(lakeopsAfter.fingerprint())
        && before.fingerprint().equals(sparkAfter.fingerprint());
  }

  String markdown() {
    StringBuilder text = new StringBuilder();
    text.append("# Binpack side by side: LakeOps vs Spark rewrite_data_files (")
        .append(size.label())
        .append(source == BenchmarkSource.GENERATOR ? "" : ", " + source.label() + "-written table")
        .append(")\n\n");
    text.append(
        format(
            "Measured %s on %d processors shared with other work (load average 1/5/15 min: %s at the"
                + " start, %s at the end), one JVM (max heap %s). Source table: %,d Parquet files,"
                + " %s, %,d rows, %s, written by %s"
                + " (%s). Both copies hold the same"
                + " files byte for byte; both compact to target-file-size-bytes = %s.\n\n",
            LocalDate.now(ZoneOffset.UTC),
            processors,
            loadAtStart,
            loadAtEnd,
            mib(maxHeapBytes),
            before.dataFiles(),
            mib(before.bytes()),
            before.fingerprint().rowCount(),
            size.days() > 0 ? "partitioned by day over " + size.days() + " days" : "unpartitioned",
            source.description(),
            columns,
            mib(SideBySideBenchmark.TARGET_FILE_SIZE_BYTES)));
    text.append(
        "| | LakeOps (`TableCompactor`, 256 MB budget) | Spark `rewrite_data_files` (local[2]) |\n");
    text.append("|---|---|---|\n");
    row(text, "wall time of the compaction", seconds(lakeops.wall()), seconds(spark.wall()));
    row(
        text,
        "machine load average at the phase's start",
        lakeops.loadAtStart(),
        spark.loadAtStart());
    row(text, "Spark session start (not in wall time)", "—", seconds(spark.sessionStart()));
    row(
        text,
        "input bytes copied decode-free / decoded",
        mib(lakeops.copiedBytes())
            + " / "
            + mib(lakeops.decodedBytes())
            + format(
                " (%.1f %% decode-free)",
                100.0
                    * lakeops.copiedBytes()
                    / Math.max(1, lakeops.copiedBytes() + lakeops.decodedBytes())),
        "n/a (decodes everything)");
    row(
        text,
        "groups that decoded, by reason (`fallback_reasons`)",
        lakeops.fallbackReasons(),
        "n/a");
    row(
        text,
        "throughput (input MiB/s)",
        format("%.1f", throughput(before.bytes(), lakeops.wall())),
        format("%.1f", throughput(before.bytes(), spark.wall())));
    row(
        text,
        "engine peak memory",
        mib(lakeops.enginePeakMemoryBytes()) + " (`peakMemoryBytes` of the result)",
        "n/a");
    row(
        text,
        "JVM peak RSS during the phase (VmHWM)",
        mib(lakeops.peakRssBytes()),
        mib(spark.peakRssBytes()));
    afterRows(text, before, lakeopsAfter, sparkAfter);
    text.append("\n");
    text.append(
        format(
            "**Ratio: Spark wall time / LakeOps wall time = %.2f×**\n\n",
            spark.wall().toNanos() / (double) Math.max(1, lakeops.wall().toNanos())));
    text.append(
        "Notes: the fingerprint is the row count and the sum of a 64-bit hash of every row over all"
            + " columns (`dev.lakeops.verify.RowFingerprint`), computed the same way for the source and"
            + " both copies. VmHWM is reset (`/proc/self/clear_refs`) after a GC before each phase, so"
            + " each figure is that phase's peak of the whole JVM, including heap the earlier phases"
            + " left committed. LakeOps runs first, before any Spark class is loaded.\n\n");
    text.append(
        "Reproduce: `"
            + ReportFiles.MAVEN_COMMAND
            + " -Dlakeops.benchmark="
            + size.label()
            + " -Dlakeops.benchmark.source="
            + source.label()
            + " -Dbenchmark.workDirectory=/work/bench-data` (the source table is written once into the work"
            + " directory and reused by later runs)\n");
    return text.toString();
  }
}
