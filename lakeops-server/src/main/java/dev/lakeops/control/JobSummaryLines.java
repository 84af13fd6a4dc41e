package dev.lakeops.control;

import dev.lakeops.ledger.RunFigures;
import dev.lakeops.runs.RunFields;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the result a {@code LakeOpsJob compact} printed on standard output, one {@code column:
 * value} line per result column ({@code rewritten_data_files_count: 12}), into ledger figures.
 * Other lines (a wrapper script's, Spark's own) are ignored.
 */
final class JobSummaryLines {
  private static final Pattern LINE = Pattern.compile("^([a-z][a-z0-9_]*): ?(.*)$");

  private final Map<String, String> fields;

  private JobSummaryLines(Map<String, String> fields) {
    this.fields = Map.copyOf(fields);
  }

  static JobSummaryLines parse(List<String> lines) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher matcher = LINE.matcher(line.strip());
      if (matcher.matches()) {
        fields.put(RunFields.fieldOfIcebergColumn(matcher.group(1)), matcher.group(2).strip());
      }
    }
    return new JobSummaryLines(fields);
  }

  /** Whether the output held a compaction result (its input file count at least). */
  boolean present() {
    return fields.containsKey(RunFields.INPUT_FILES);
  }

  /** The figures the result carries; what it lacks (output bytes) stays 0. */
  RunFigures figures() {
    String snapshot = fields.getOrDefault(RunFields.SNAPSHOT_ID, "");
    return new RunFigures(
        number(RunFields.INPUT_FILES),
        number(RunFields.OUTPUT_FILES),
        number(RunFields.INPUT_BYTES),
        0,
        number(RunFields.REMOVED_DELETE_FILES),
        0,
        number(RunFields.PEAK_MEMORY_BYTES),
        isNumber(snapshot) ? OptionalLong.of(Long.parseLong(snapshot)) : OptionalLong.empty());
  }

  long failedDataFiles() {
    return number(RunFields.FAILED_DATA_FILES);
  }

  private long number(String field) {
    String value = fields.getOrDefault(field, "");
    return isNumber(value) ? Long.parseLong(value) : 0;
  }

  private static boolean isNumber(String value) {
    return value.matches("-?\\d{1,19}");
  }
}
