package dev.lakeops.advise;

import java.util.List;

/**
 * What scans for a workload would read from one table layout.
 *
 * @param tableFiles data files of the snapshot measured
 * @param tableBytes their size
 * @param tableRowGroups their Parquet row groups
 * @param queries one scan per workload filter
 */
public record ScanMeasurement(
    long tableFiles, long tableBytes, long tableRowGroups, List<QueryScan> queries) {
  public ScanMeasurement {
    queries = List.copyOf(queries);
  }

  public long files() {
    return queries.stream().mapToLong(QueryScan::files).sum();
  }

  public long fileBytes() {
    return queries.stream().mapToLong(QueryScan::fileBytes).sum();
  }

  public long rowGroups() {
    return queries.stream().mapToLong(QueryScan::rowGroups).sum();
  }

  public long rowGroupBytes() {
    return queries.stream().mapToLong(QueryScan::rowGroupBytes).sum();
  }

  public long pageBytes() {
    return queries.stream().mapToLong(QueryScan::pageBytes).sum();
  }
}
