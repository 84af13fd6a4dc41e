package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Whether a set of Parquet files can be merged by copying, and if not, every reason why.
 *
 * @param reasons why the files cannot be merged by copying; empty when they can
 */
public record MergeEligibility(List<String> reasons) {
  public MergeEligibility {
    reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
  }

  public static MergeEligibility eligible() {
    return new MergeEligibility(List.of());
  }

  public boolean isEligible() {
    return reasons.isEmpty();
  }
}
