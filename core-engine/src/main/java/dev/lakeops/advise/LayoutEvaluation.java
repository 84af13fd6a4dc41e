package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One candidate layout weighed against every query class.
 *
 * @param candidate the layout
 * @param classes the figures per query class, heaviest class first
 * @param weightedBytesNow the classes' bytes read now, weighted by share
 * @param weightedBytesAfter the same under the layout
 * @param worsened the significant classes the layout makes read more than the allowed factor more
 */
public record LayoutEvaluation(
    LayoutCandidate candidate,
    List<QueryClassEstimate> classes,
    double weightedBytesNow,
    double weightedBytesAfter,
    List<QueryClassEstimate> worsened) {
  public LayoutEvaluation {
    requireNonNull(candidate, "candidate is null");
    classes = List.copyOf(requireNonNull(classes, "classes is null"));
    worsened = List.copyOf(requireNonNull(worsened, "worsened is null"));
  }

  /** The share of weighted bytes the layout saves: 0.9 is 90 % less; negative reads more. */
  public double reduction() {
    return weightedBytesNow == 0 ? 0 : 1 - weightedBytesAfter / weightedBytesNow;
  }

  public boolean acceptable() {
    return worsened.isEmpty();
  }
}
