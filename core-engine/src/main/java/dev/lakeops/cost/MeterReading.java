package dev.lakeops.cost;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.ObjectRequests;

/**
 * The meter's totals at one instant.
 *
 * @param requests requests so far, indexed by {@link RequestKind#ordinal()}
 * @param bytesRead bytes of GET responses so far
 * @param bytesWritten bytes of PUT requests so far
 * @param inFlightNanos the area under the requests-in-flight curve so far, in request-nanoseconds
 * @param nanos the instant, on {@link System#nanoTime()}'s scale
 */
record MeterReading(
    long[] requests, long bytesRead, long bytesWritten, long inFlightNanos, long nanos) {
  MeterReading {
    requireNonNull(requests, "requests is null");
    requests = requests.clone();
  }

  /** The requests by kind made between {@code earlier} and this reading. */
  ObjectRequests requestsSince(MeterReading earlier) {
    return new ObjectRequests(
        since(earlier, RequestKind.GET),
        since(earlier, RequestKind.PUT),
        since(earlier, RequestKind.HEAD),
        since(earlier, RequestKind.LIST),
        since(earlier, RequestKind.DELETE),
        since(earlier, RequestKind.OTHER));
  }

  private long since(MeterReading earlier, RequestKind kind) {
    return requests[kind.ordinal()] - earlier.requests[kind.ordinal()];
  }
}
