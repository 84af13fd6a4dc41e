package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.expressions.Expression;

/**
 * One filter of a measured workload.
 *
 * @param description the filter as text, e.g. {@code user_id = 4711}
 * @param filter the Iceberg expression scans are planned with
 */
public record WorkloadQuery(String description, Expression filter) {
  public WorkloadQuery {
    requireNonNull(description, "description is null");
    requireNonNull(filter, "filter is null");
  }
}
