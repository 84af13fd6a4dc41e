package dev.lakeops.cost;

import dev.lakeops.ledger.ObjectRequests;
import dev.lakeops.ledger.RunCost;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run cost as named fields, the same in every report: the CLI's {@code --json} objects, the
 * hosts' result rows and the ledger's figures.
 */
public final class CostFields {
  /**
   * Object storage requests by kind: a map with the keys GET, PUT, HEAD, LIST and DELETE always,
   * and OTHER when a request of none of those kinds was made.
   */
  public static final String OBJECT_REQUESTS = "object_requests";

  public static final String OBJECT_BYTES_READ = "object_bytes_read";
  public static final String OBJECT_BYTES_WRITTEN = "object_bytes_written";
  public static final String REQUESTS_IN_FLIGHT_PEAK = "requests_in_flight_peak";
  public static final String REQUESTS_IN_FLIGHT_MEAN = "requests_in_flight_mean";
  public static final String CPU_SECONDS = "cpu_seconds";

  private CostFields() {}

  /** The six fields of {@code cost}, in the order above. */
  public static Map<String, Object> of(RunCost cost) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(OBJECT_REQUESTS, requestsByKind(cost.requests()));
    fields.put(OBJECT_BYTES_READ, cost.bytesRead());
    fields.put(OBJECT_BYTES_WRITTEN, cost.bytesWritten());
    fields.put(REQUESTS_IN_FLIGHT_PEAK, cost.inFlightPeak());
    fields.put(REQUESTS_IN_FLIGHT_MEAN, cost.inFlightMean());
    fields.put(CPU_SECONDS, cost.cpuSeconds());
    return Collections.unmodifiableMap(fields);
  }

  /** {@code report} followed by the fields of {@code cost}. */
  public static Map<String, Object> appendedTo(Map<String, Object> report, RunCost cost) {
    Map<String, Object> fields = new LinkedHashMap<>(report);
    fields.putAll(of(cost));
    return fields;
  }

  private static Map<String, Long> requestsByKind(ObjectRequests requests) {
    Map<String, Long> byKind = new LinkedHashMap<>();
    byKind.put("GET", requests.get());
    byKind.put("PUT", requests.put());
    byKind.put("HEAD", requests.head());
    byKind.put("LIST", requests.list());
    byKind.put("DELETE", requests.delete());
    if (requests.other() > 0) {
      byKind.put("OTHER", requests.other());
    }
    return Collections.unmodifiableMap(byKind);
  }
}
