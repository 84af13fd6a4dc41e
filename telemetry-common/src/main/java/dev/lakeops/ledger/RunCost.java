package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

/**
 * What a run cost on object storage and in CPU: the requests and bytes every AWS SDK client of the
 * process made while the run ran, how many were in flight at once, and the process's CPU time.
 *
 * @param requests object storage requests by kind
 * @param bytesRead bytes the GET responses carried (their {@code Content-Length})
 * @param bytesWritten bytes the PUT requests carried (the object bytes, without signing chunks)
 * @param inFlightPeak the most requests in flight at once while the run ran
 * @param inFlightMean requests in flight on average over the run's wall time
 * @param cpuSeconds CPU time the whole process used while the run ran
 */
public record RunCost(
    ObjectRequests requests,
    long bytesRead,
    long bytesWritten,
    long inFlightPeak,
    double inFlightMean,
    double cpuSeconds) {
  /** A run that was not measured. */
  public static final RunCost NONE = new RunCost(ObjectRequests.NONE, 0, 0, 0, 0, 0);

  public RunCost {
    requireNonNull(requests, "requests is null");
    if (bytesRead < 0
        || bytesWritten < 0
        || inFlightPeak < 0
        || inFlightMean < 0
        || cpuSeconds < 0) {
      throw new IllegalArgumentException("Run cost figures must not be negative: " + this);
    }
  }
}
