package dev.lakeops.spark.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fragmented tables the benchmark can generate: file count, rows per file and day partitions (0
 * = unpartitioned). Rows per file are chosen so the generated Parquet files add up to the name.
 */
enum BenchmarkSize {
  SMALL("200mb", 1_000, 8_900, 4),
  LARGE("2gb", 4_000, 22_800, 8),
  /** A few seconds' worth, to check the harness itself. */
  TINY("tiny", 40, 2_000, 2);

  private final String label;
  private final int files;
  private final int rowsPerFile;
  private final int days;

  BenchmarkSize(String label, int files, int rowsPerFile, int days) {
    this.label = label;
    this.files = files;
    this.rowsPerFile = rowsPerFile;
    this.days = days;
  }

  static BenchmarkSize parse(String text) {
    for (BenchmarkSize size : values()) {
      if (size.label.equalsIgnoreCase(text.trim())) {
        return size;
      }
    }
    throw new IllegalArgumentException(
        "Unknown benchmark size '"
            + text
            + "': use one of "
            + Arrays.stream(values()).map(BenchmarkSize::label).collect(Collectors.joining(", ")));
  }

  String label() {
    return label.toLowerCase(Locale.ROOT);
  }

  int files() {
    return files;
  }

  int rowsPerFile() {
    return rowsPerFile;
  }

  int days() {
    return days;
  }
}
