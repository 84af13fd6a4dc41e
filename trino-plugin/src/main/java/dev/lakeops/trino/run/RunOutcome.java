package dev.lakeops.trino.run;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;

/**
 * What one successful procedure run reports.
 *
 * @param dryRun whether the run only planned
 * @param strategy the compaction strategy that ran, for compact and maintain
 * @param metrics the figures that apply to this procedure
 * @param summary one human line, e.g. {@code rewrote 6 data files (12 kB) into 1 (9 kB)}
 */
public record RunOutcome(
    boolean dryRun, Optional<String> strategy, Map<RunMetric, Long> metrics, String summary) {
  public RunOutcome {
    requireNonNull(strategy, "strategy is null");
    requireNonNull(metrics, "metrics is null");
    requireNonNull(summary, "summary is null");
    metrics = Map.copyOf(metrics);
  }
}
