package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Thresholds of the {@link SortAdvisor}.
 *
 * @param minimumFilterEvents queries with filters needed before the advisor advises at all
 * @param halfLife the age at which a query counts half
 * @param dominantShare a column with at least this share of the score is a sort key on its own
 * @param zorderSimilarity columns whose score is at least this fraction of the top score count as
 *     used with similar weight, for Z-order
 * @param minimumColumnShare columns below this share never become sort keys
 * @param maximumSortColumns sort keys proposed at most
 * @param maximumZorderColumns Z-order columns proposed at most (2 to 4)
 * @param confidenceThreshold the confidence from which advice is {@code confident()}
 */
public record SortAdvisorOptions(
    int minimumFilterEvents,
    Duration halfLife,
    double dominantShare,
    double zorderSimilarity,
    double minimumColumnShare,
    int maximumSortColumns,
    int maximumZorderColumns,
    double confidenceThreshold) {
  /** Queries with filters needed before advising. */
  public static final int MINIMUM_FILTER_EVENTS_DEFAULT = 20;

  /** A week: last week's queries count half as much as today's. */
  public static final Duration HALF_LIFE_DEFAULT = Duration.ofDays(7);

  /** Share from which one column dominates. */
  public static final double DOMINANT_SHARE_DEFAULT = 0.6;

  /** Fraction of the top score from which columns are used with similar weight. */
  public static final double ZORDER_SIMILARITY_DEFAULT = 0.5;

  /** Share below which a column is never a sort key. */
  public static final double MINIMUM_COLUMN_SHARE_DEFAULT = 0.1;

  /** Sort keys proposed at most. */
  public static final int MAXIMUM_SORT_COLUMNS_DEFAULT = 3;

  /** Z-order columns proposed at most. */
  public static final int MAXIMUM_ZORDER_COLUMNS_DEFAULT = 4;

  /** Confidence from which advice is confident. */
  public static final double CONFIDENCE_THRESHOLD_DEFAULT = 0.6;

  public SortAdvisorOptions {
    if (minimumFilterEvents < 1) {
      throw new IllegalArgumentException(
          "minimumFilterEvents must be at least 1: " + minimumFilterEvents);
    }
    requireNonNull(halfLife, "halfLife is null");
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("halfLife must be positive: " + halfLife);
    }
    requireFraction(dominantShare, "dominantShare");
    requireFraction(zorderSimilarity, "zorderSimilarity");
    requireFraction(minimumColumnShare, "minimumColumnShare");
    requireFraction(confidenceThreshold, "confidenceThreshold");
    if (maximumSortColumns < 1) {
      throw new IllegalArgumentException(
          "maximumSortColumns must be at least 1: " + maximumSortColumns);
    }
    if (maximumZorderColumns < 2 || maximumZorderColumns > 4) {
      throw new IllegalArgumentException(
          "maximumZorderColumns must be between 2 and 4: " + maximumZorderColumns);
    }
  }

  public static SortAdvisorOptions defaults() {
    return new SortAdvisorOptions(
        MINIMUM_FILTER_EVENTS_DEFAULT,
        HALF_LIFE_DEFAULT,
        DOMINANT_SHARE_DEFAULT,
        ZORDER_SIMILARITY_DEFAULT,
        MINIMUM_COLUMN_SHARE_DEFAULT,
        MAXIMUM_SORT_COLUMNS_DEFAULT,
        MAXIMUM_ZORDER_COLUMNS_DEFAULT,
        CONFIDENCE_THRESHOLD_DEFAULT);
  }

  public SortAdvisorOptions withMinimumFilterEvents(int value) {
    return new SortAdvisorOptions(
        value,
        halfLife,
        dominantShare,
        zorderSimilarity,
        minimumColumnShare,
        maximumSortColumns,
        maximumZorderColumns,
        confidenceThreshold);
  }

  public SortAdvisorOptions withHalfLife(Duration value) {
    return new SortAdvisorOptions(
        minimumFilterEvents,
        value,
        dominantShare,
        zorderSimilarity,
        minimumColumnShare,
        maximumSortColumns,
        maximumZorderColumns,
        confidenceThreshold);
  }

  private static void requireFraction(double value, String name) {
    if (!(value > 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(name + " must be in (0, 1]: " + value);
    }
  }
}
