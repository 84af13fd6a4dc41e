package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

/**
 * What a scan for one filter would read.
 *
 * @param query the filter
 * @param files data files left after file pruning (partition values and column bounds)
 * @param fileBytes the size of those files
 * @param rowGroups Parquet row groups of those files whose column statistics may match
 * @param rowGroupBytes compressed bytes of those row groups: what a reader fetches
 * @param rowGroupRows rows in those row groups
 */
public record QueryScan(
    WorkloadQuery query, long files, long fileBytes, long rowGroups, long rowGroupBytes, long rowGroupRows) {
  public QueryScan {
    requireNonNull(query, "query is null");
  }
}
