package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import dev.lakeops.telemetry.advise.SortAdvice;

/**
 * What {@code --strategy auto} resolved to.
 *
 * @param request the request to run: binpack, sort (with its sort order) or zorder (with its
 *     columns), every other value as asked
 * @param reason one paragraph: the choice, then the advisor's explanation
 * @param advice the advice the choice rests on
 */
public record AutoStrategyChoice(CompactionRequest request, String reason, SortAdvice advice) {
  /** Prefix of the strategy name results report, e.g. {@code auto->sort}. */
  public static final String STRATEGY_PREFIX = "auto->";

  public AutoStrategyChoice {
    requireNonNull(request, "request is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(advice, "advice is null");
    if (request.strategy() == Strategy.AUTO) {
      throw new IllegalArgumentException("An auto choice must resolve to binpack, sort or zorder");
    }
  }

  public Strategy strategy() {
    return request.strategy();
  }

  /** The name results report: {@code auto->binpack}, {@code auto->sort} or {@code auto->zorder}. */
  public String strategyName() {
    return STRATEGY_PREFIX + request.strategy().displayName();
  }
}
