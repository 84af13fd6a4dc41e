package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * Whether a set of Parquet files can be merged by copying, and if not, why.
 *
 * @param layout how the files merge (output schema, what each input needs); empty when they cannot
 * @param fallbackReason when they cannot, the short reason reported per group in {@code
 *     fallback_reasons} (one of {@link FallbackReasons}); empty when they can
 * @param reasons every detail, naming the file and column; empty when they can
 */
public record MergeEligibility(
    Optional<MergeLayout> layout, String fallbackReason, List<String> reasons) {
  public MergeEligibility {
    requireNonNull(layout, "layout is null");
    requireNonNull(fallbackReason, "fallbackReason is null");
    reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
    if (layout.isPresent() != reasons.isEmpty() || layout.isPresent() != fallbackReason.isEmpty()) {
      throw new IllegalArgumentException(
          "An eligible merge has a layout and no reasons, an ineligible one the reverse");
    }
  }

  public static MergeEligibility eligible(MergeLayout layout) {
    return new MergeEligibility(Optional.of(layout), "", List.of());
  }

  public static MergeEligibility ineligible(String fallbackReason, List<String> reasons) {
    return new MergeEligibility(Optional.empty(), fallbackReason, reasons);
  }

  public boolean isEligible() {
    return layout.isPresent();
  }
}
