package dev.lakeops.observe;

/**
 * The lake-wide memory budget and the part of it that running jobs hold.
 *
 * @param usedBytes memory carved out for running jobs
 * @param totalBytes the whole budget; 0 when none is configured
 */
public record BudgetUse(long usedBytes, long totalBytes) {
  public static final BudgetUse NONE = new BudgetUse(0, 0);

  public BudgetUse {
    if (usedBytes < 0 || totalBytes < 0) {
      throw new IllegalArgumentException(
          "Budget figures must not be negative: used " + usedBytes + ", total " + totalBytes);
    }
  }
}
