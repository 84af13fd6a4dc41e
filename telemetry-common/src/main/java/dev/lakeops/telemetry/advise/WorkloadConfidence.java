package dev.lakeops.telemetry.advise;

/**
 * How much of an observed share a number of queries supports: the 95 % Wilson score interval's
 * lower bound of a proportion {@code share} seen over {@code queries} queries, divided by {@code
 * share}. 32 queries that all agree (share 1) support 32 / (32 + 1.96²) = 0.893 of it; 20 support
 * 0.839; a 75 % share over 32 queries 0.772.
 */
public final class WorkloadConfidence {
  /** The normal quantile of the two-sided 95 % interval. */
  public static final double Z = 1.96;

  private WorkloadConfidence() {}

  /** Between 0 and 1; 1 when the share is 0 (nothing to support), 0 without queries. */
  public static double dataFactor(double share, long queries) {
    if (share <= 0) {
      return 1.0;
    }
    if (queries <= 0) {
      return 0.0;
    }
    double n = queries;
    double z2 = Z * Z;
    double center = share + z2 / (2 * n);
    double margin = Z * Math.sqrt(share * (1 - share) / n + z2 / (4 * n * n));
    double lower = (center - margin) / (1 + z2 / n);
    return Math.max(0.0, Math.min(1.0, lower / share));
  }
}
