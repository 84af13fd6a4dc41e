package dev.lakeops.control;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Finds the reason a Spark application failed in its standard error, which also carries Spark's log
 * lines and stack traces: the last line that is neither.
 */
final class SparkSubmitErrors {
  /** Spark's default log layout ({@code 26/12/03 14:05:01 INFO SparkContext: ...}). */
  private static final Pattern LOG_LINE =
      Pattern.compile("^\\d{2}/\\d{2}/\\d{2} \\d{2}:\\d{2}:\\d{2} [A-Z]+ .*");

  /** What {@code TableLockedException} says. */
  private static final String LOCKED = " is being compacted by ";

  private SparkSubmitErrors() {}

  static String reason(List<String> errorLines) {
    for (int index = errorLines.size() - 1; index >= 0; index--) {
      String line = errorLines.get(index);
      if (!line.isBlank()
          && !Character.isWhitespace(line.charAt(0))
          && !line.startsWith("{")
          && !line.startsWith("Caused by:")
          && !LOG_LINE.matcher(line).matches()) {
        return line.strip();
      }
    }
    return "no error message";
  }

  static boolean isLocked(String reason) {
    return reason.contains(LOCKED);
  }
}
