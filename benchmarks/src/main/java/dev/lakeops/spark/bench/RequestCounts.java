package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import java.util.EnumMap;
import java.util.Map;

/**
 * The requests one phase sent to the object store, counted on the server: how many of each kind,
 * the peak number in flight at once and the time-weighted mean while the phase talked to the store.
 */
record RequestCounts(Map<RequestKind, Long> byKind, long peakInFlight, double meanInFlight) {
  RequestCounts {
    requireNonNull(byKind, "byKind is null");
    byKind = Map.copyOf(new EnumMap<>(byKind));
  }

  long count(RequestKind kind) {
    return byKind.getOrDefault(kind, 0L);
  }

  long total() {
    return byKind.values().stream().mapToLong(Long::longValue).sum();
  }
}
