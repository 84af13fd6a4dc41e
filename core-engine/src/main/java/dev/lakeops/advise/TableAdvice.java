package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.advise.SortAdvice;
import java.util.List;
import java.util.Optional;

/**
 * The advice for an Iceberg table, with the layouts weighed against the recorded query classes.
 *
 * @param advice the advice (the layout {@code compact --strategy auto} uses)
 * @param evaluations every candidate layout weighed, best first; empty when nothing was weighed
 * @param chosen the evaluation of the advised layout, when it was weighed
 */
public record TableAdvice(
    SortAdvice advice, List<LayoutEvaluation> evaluations, Optional<LayoutEvaluation> chosen) {
  public TableAdvice {
    requireNonNull(advice, "advice is null");
    evaluations = List.copyOf(requireNonNull(evaluations, "evaluations is null"));
    requireNonNull(chosen, "chosen is null");
  }
}
