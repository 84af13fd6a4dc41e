package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

/**
 * The smallest and largest value of a column, rendered as text (Iceberg's human-readable bound).
 *
 * @param lower the lower bound
 * @param upper the upper bound
 */
public record ValueRange(String lower, String upper) {
  public ValueRange {
    requireNonNull(lower, "lower is null");
    requireNonNull(upper, "upper is null");
  }
}
