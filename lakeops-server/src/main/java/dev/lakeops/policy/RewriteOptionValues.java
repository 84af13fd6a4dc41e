package dev.lakeops.policy;

import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.unit.TimeInput;
import java.util.Locale;
import java.util.Set;

/**
 * Checks the form of a {@code compact.options.<option>} value when the policy is loaded, so a typo
 * stops the daemon at start instead of failing each compaction; the ranges are checked again by
 * {@link RewriteOptions#parse} against the table.
 */
final class RewriteOptionValues {
  private static final Set<String> BOOLEANS =
      Set.of(
          RewriteOptions.REWRITE_ALL,
          RewriteOptions.PARTIAL_PROGRESS_ENABLED,
          RewriteOptions.USE_STARTING_SEQUENCE_NUMBER,
          RewriteOptions.REMOVE_DANGLING_DELETES,
          RewriteOptions.DECODE_FREE_MERGE);

  private RewriteOptionValues() {}

  /**
   * Throws IllegalArgumentException with a one-line reason when {@code text} cannot be a value of
   * {@code option}.
   */
  static void check(String option, String text) {
    String trimmed = text.trim();
    if (BOOLEANS.contains(option)) {
      String lower = trimmed.toLowerCase(Locale.ROOT);
      if (!lower.equals("true") && !lower.equals("false")) {
        throw new IllegalArgumentException("'" + text + "' is not one of true|false");
      }
    } else if (option.equals(RewriteOptions.DELETE_RATIO_THRESHOLD)) {
      PolicyValueType.RATIO.parse(text);
    } else if (option.equals(RewriteOptions.MIN_AGE)) {
      try {
        TimeInput.parseDuration(text, "duration");
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "'" + text + "' is not " + PolicyValueType.DURATION.choices());
      }
    } else {
      try {
        if (Long.parseLong(trimmed) < 0) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + text + "' is not a whole number, at least 0");
      }
    }
  }
}
