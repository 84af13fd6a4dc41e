package dev.lakeops.runs;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunCost;

/**
 * A run's result with what it cost, as the run ledger recorded it.
 *
 * @param result what the operation returned
 * @param cost object storage requests and bytes, requests in flight and CPU time of the run
 */
public record MeasuredRun<T>(T result, RunCost cost) {
  public MeasuredRun {
    requireNonNull(result, "result is null");
    requireNonNull(cost, "cost is null");
  }
}
