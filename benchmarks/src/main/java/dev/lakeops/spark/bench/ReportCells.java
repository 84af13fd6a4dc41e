package dev.lakeops.spark.bench;

import dev.lakeops.spark.bench.SideBySideBenchmark.TableState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/** Cells and rows of the benchmarks' Markdown tables, formatted the same way in every report. */
final class ReportCells {
  private ReportCells() {}

  static void row(StringBuilder text, String label, String... cells) {
    text.append("| ").append(label);
    for (String cell : cells) {
      text.append(" | ").append(cell);
    }
    text.append(" |\n");
  }

  /**
   * The rows every LakeOps-against-Spark report ends its table with: data files before and after,
   * bytes after, and whether each copy still holds the source's rows.
   */
  static void afterRows(
      StringBuilder text, TableState before, TableState lakeopsAfter, TableState sparkAfter) {
    row(
        text,
        "data files before → after",
        before.dataFiles() + " → " + lakeopsAfter.dataFiles(),
        before.dataFiles() + " → " + sparkAfter.dataFiles());
    row(text, "bytes after", mib(lakeopsAfter.bytes()), mib(sparkAfter.bytes()));
    row(
        text,
        "row fingerprint (count / checksum) matches source",
        fingerprint(before, lakeopsAfter),
        fingerprint(before, sparkAfter));
  }

  /** Whether {@code after} holds the rows of {@code before}, with its count and checksum. */
  static String fingerprint(TableState before, TableState after) {
    boolean same = after.fingerprint().equals(before.fingerprint());
    return (same ? "yes" : "**NO**")
        + " ("
        + after.fingerprint().rowCount()
        + " / "
        + Long.toHexString(after.fingerprint().checksum())
        + ")";
  }

  static double throughput(long bytes, Duration wall) {
    return bytes / (1024.0 * 1024.0) / Math.max(1e-9, wall.toNanos() / 1e9);
  }

  static String seconds(Duration duration) {
    return format("%.1f s", duration.toNanos() / 1e9);
  }

  static String preciseSeconds(Duration duration) {
    return format("%.2f s", duration.toNanos() / 1e9);
  }

  static String mib(long bytes) {
    return bytes < 0 ? "n/a" : format("%,.1f MiB", bytes / (1024.0 * 1024.0));
  }

  /**
   * The table's columns for a report's header, grouped by type in the order the types first appear:
   * {@code 8 columns: event_id, user_id (long); country, event_type, payload (string); ...}.
   */
  static String columns(Schema schema) {
    Map<String, List<String>> byType = new LinkedHashMap<>();
    for (Types.NestedField field : schema.columns()) {
      byType.computeIfAbsent(field.type().toString(), type -> new ArrayList<>()).add(field.name());
    }
    return schema.columns().size()
        + " columns: "
        + byType.entrySet().stream()
            .map(entry -> String.join(", ", entry.getValue()) + " (" + entry.getKey() + ")")
            .collect(Collectors.joining("; "));
  }

  static String format(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }
}
