package dev.lakeops.spark.bench;

import static dev.lakeops.spark.bench.ReportCells.format;
import static dev.lakeops.spark.bench.ReportCells.mib;
import static dev.lakeops.spark.bench.ReportCells.seconds;
import static java.util.Objects.requireNonNull;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

/**
 * One table per source measured in the same run (Spark-written first, the generator's table as the
 * second row), appended to the first source's report.
 */
final class SourceComparison {
  private SourceComparison() {}

  static void appendTo(Path report, String mode, List<Row> rows) throws IOException {
    StringBuilder text = new StringBuilder();
    text.append("\n## Both source tables in this run (").append(mode).append(")\n\n");
    text.append(
        "| source table | files | size | LakeOps | Spark | ratio | LakeOps peak RSS | decode-free / decoded | report |\n");
    text.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Row row : rows) {
      ReportCells.row(
          text,
          row.source().label() + "-written",
          format("%,d", row.before().dataFiles()),
          mib(row.before().bytes()),
          seconds(row.lakeops()),
          seconds(row.spark()),
          row.lakeops().isZero() || row.spark().isZero()
              ? "n/a"
              : format("%.2f×", row.spark().toNanos() / (double) row.lakeops().toNanos()),
          mib(row.lakeopsPeakRssBytes()),
          row.copiedBytes() < 0 ? "n/a" : mib(row.copiedBytes()) + " / " + mib(row.decodedBytes()),
          "[" + row.report() + "](" + row.report() + ")");
    }
    Files.writeString(report, text.toString(), StandardOpenOption.APPEND);
    System.out.println(text);
  }

  /** One source's figures; a zero wall time marks a phase that failed. */
  record Row(
      BenchmarkSource source,
      TableState before,
      Duration lakeops,
      Duration spark,
      long lakeopsPeakRssBytes,
      long copiedBytes,
      long decodedBytes,
      String report) {
    Row {
      requireNonNull(source, "source is null");
      requireNonNull(before, "before is null");
      requireNonNull(lakeops, "lakeops is null");
      requireNonNull(spark, "spark is null");
      requireNonNull(report, "report is null");
    }
  }
}
