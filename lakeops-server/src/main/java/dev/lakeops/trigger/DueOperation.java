package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.PartitionHealth;
import dev.lakeops.operation.MaintenanceOperation;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One operation a table needs now, and why.
 *
 * @param operation what to run
 * @param reason for the log and the ledger, e.g. {@code day=2026-12-01: 41 small files >= 12}
 * @param partitions for {@link MaintenanceOperation#COMPACT} and {@link
 *     MaintenanceOperation#REWRITE_POSITION_DELETES}: the partitions that need it (empty for the
 *     other operations)
 * @param where for those two: a row filter in {@code CompactionRequest.where} syntax selecting
 *     those partitions (empty: the whole table). Exact for identity and year/month/day/hour
 *     partitions; a partition field of another transform (bucket, truncate) is left out, so the
 *     filter selects a superset, which the rewrite options keep to small files and files with
 *     deletes.
 * @param rewriteOptions for {@link MaintenanceOperation#COMPACT}: Iceberg rewrite options for
 *     {@code CompactionRequest.options}: the policy's {@code compact.options.*}, the target size,
 *     {@code min-file-size-bytes} at the small-file ratio, {@code max-file-size-bytes} so large
 *     files are not split, {@code min-input-files=2}, and {@code delete-file-threshold=1} when
 *     deletes are due
 * @param estimatedBenefit small files removed plus delete files dropped (manifests removed for a
 *     manifest rewrite, snapshots for an expiry, 1 for an orphan cleanup)
 * @param estimatedCostBytes bytes to rewrite (at least 1): for a rewrite of position delete files,
 *     their bytes
 */
public record DueOperation(
    MaintenanceOperation operation,
    String reason,
    List<PartitionHealth> partitions,
    Optional<String> where,
    Map<String, String> rewriteOptions,
    long estimatedBenefit,
    long estimatedCostBytes) {

  public DueOperation {
    requireNonNull(operation, "operation is null");
    requireNonNull(reason, "reason is null");
    partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
    requireNonNull(where, "where is null");
    rewriteOptions =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(rewriteOptions, "rewriteOptions is null")));
    estimatedCostBytes = Math.max(1, estimatedCostBytes);
  }

  /** An operation without partitions or rewrite options. */
  static DueOperation of(
      MaintenanceOperation operation, String reason, long benefit, long costBytes) {
    return new DueOperation(
        operation, reason, List.of(), Optional.empty(), Map.of(), benefit, costBytes);
  }

  /** What the queue orders by: benefit per byte to rewrite. */
  public double benefitPerCost() {
    return estimatedBenefit / (double) estimatedCostBytes;
  }
}
