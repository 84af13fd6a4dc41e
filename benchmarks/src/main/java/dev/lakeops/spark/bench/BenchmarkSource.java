package dev.lakeops.spark.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Who wrote the benchmark's source table: LakeOps' own generator (Iceberg's generic Parquet writer,
 * files that always match the table's write schema) or Spark's Iceberg writer, one {@code INSERT}
 * per commit, as users' tables are written ({@link SparkWrittenTable}).
 */
enum BenchmarkSource {
  GENERATOR(
      "generator",
      "",
      "Iceberg's generic Parquet writer (LakeOps' generator, 50 files per commit)"),
  SPARK(
      "spark",
      "-spark-written",
      "Spark's Iceberg writer, one Spark `INSERT` per commit ("
          + SparkWrittenTable.TASKS_PER_COMMIT
          + " tasks, one file per task and day, zstd; Spark writes `event_id` as `required`, the table has it optional)");

  private final String label;
  private final String reportSuffix;
  private final String description;

  BenchmarkSource(String label, String reportSuffix, String description) {
    this.label = label;
    this.reportSuffix = reportSuffix;
    this.description = description;
  }

  /** A comma-separated list of sources, in the order given. */
  static List<BenchmarkSource> parseList(String text) {
    return Arrays.stream(text.split(","))
        .map(String::trim)
        .filter(part -> !part.isEmpty())
        .map(BenchmarkSource::parse)
        .toList();
  }

  static BenchmarkSource parse(String text) {
    for (BenchmarkSource source : values()) {
      if (source.label.equalsIgnoreCase(text.trim())) {
        return source;
      }
    }
    throw new IllegalArgumentException(
        "Unknown benchmark source '"
            + text
            + "' in -Dlakeops.benchmark.source: use one of "
            + Arrays.stream(values())
                .map(source -> source.label)
                .collect(Collectors.joining(", ")));
  }

  String label() {
    return label.toLowerCase(Locale.ROOT);
  }

  /** Appended to a report's name: binpack-2gb{suffix}.md. */
  String reportSuffix() {
    return reportSuffix;
  }

  String description() {
    return description;
  }
}
