package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;

/**
 * What a workload reads before and after a layout: the table as it is, and a copy compacted into
 * the advised layout.
 *
 * @param before scans of the current layout
 * @param after scans of the copy in the advised layout
 * @param compaction the compaction of the copy
 */
public record LayoutBenefit(
    ScanMeasurement before, ScanMeasurement after, CompactionResult compaction) {
  public LayoutBenefit {
    requireNonNull(before, "before is null");
    requireNonNull(after, "after is null");
    requireNonNull(compaction, "compaction is null");
  }

  /** The share of file bytes the advised layout saves: 0.9 means 90 % fewer bytes planned. */
  public double fileBytesReduction() {
    return reduction(before.fileBytes(), after.fileBytes());
  }

  /** The share of row-group bytes the advised layout saves. */
  public double rowGroupBytesReduction() {
    return reduction(before.rowGroupBytes(), after.rowGroupBytes());
  }

  /** The share of bytes a reader that uses Parquet page indexes saves. */
  public double pageBytesReduction() {
    return reduction(before.pageBytes(), after.pageBytes());
  }

  private static double reduction(long before, long after) {
    return before == 0 ? 0 : 1.0 - (double) after / before;
  }
}
