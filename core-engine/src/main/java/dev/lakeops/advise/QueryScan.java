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
 * @param pageBytes of those row groups, the bytes a reader that uses Parquet page indexes fetches
 *     (pages that may match and the dictionary pages; whole chunks where files have no page index)
 */
public record QueryScan(
    WorkloadQuery query,
    long files,
    long fileBytes,
    long rowGroups,
    long rowGroupBytes,
    long rowGroupRows,
    long pageBytes) {
  public QueryScan {
    requireNonNull(query, "query is null");
  }

  /** A scan measured down to row groups only: page bytes are the row-group bytes. */
  public QueryScan(
      WorkloadQuery query,
      long files,
      long fileBytes,
      long rowGroups,
      long rowGroupBytes,
      long rowGroupRows) {
    this(query, files, fileBytes, rowGroups, rowGroupBytes, rowGroupRows, rowGroupBytes);
  }
}
