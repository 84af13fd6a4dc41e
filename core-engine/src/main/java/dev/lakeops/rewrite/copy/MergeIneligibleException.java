package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

/** Thrown when input files cannot be merged by copying; the caller should rewrite them instead. */
public final class MergeIneligibleException extends RuntimeException {
  private final MergeEligibility eligibility;

  public MergeIneligibleException(MergeEligibility eligibility) {
    super("Files cannot be merged by copying: " + String.join("; ", eligibility.reasons()));
    this.eligibility = requireNonNull(eligibility, "eligibility is null");
  }

  public MergeEligibility eligibility() {
    return eligibility;
  }
}
