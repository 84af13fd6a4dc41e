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
  /**
   * Wide rows: the 8 columns and four high-entropy strings, about 90 bytes a row in zstd Parquet,
   * 22 M rows over 4 days. Written by Spark only.
   */
  WIDE("2gb-wide", 4_000, 5_500, 4, true),
  /** A few seconds' worth, to check the harness itself. */
  TINY("tiny", 40, 2_000, 2);

  private final String label;
  private final int files;
  private final int rowsPerFile;
  private final int days;
  private final boolean wide;

  BenchmarkSize(String label, int files, int rowsPerFile, int days) {
    this(label, files, rowsPerFile, days, false);
  }

  BenchmarkSize(String label, int files, int rowsPerFile, int days, boolean wide) {
    this.wide = wide;
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

  /** Whether rows carry the wide table's extra string columns (Spark-written tables only). */
  boolean wide() {
    return wide;
  }
}
