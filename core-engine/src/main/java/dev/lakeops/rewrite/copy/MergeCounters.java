package dev.lakeops.rewrite.copy;

import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/** Mutable tallies of one merge, turned into a {@link MergeResult} at its end. */
final class MergeCounters {
  long rowCount;
  int rowGroupsWritten;
  int rowGroupsCopiedWhole;
  long bytesCopiedVerbatim;
  long bytesRewritten;
  int columnChunksWithMergedDictionary;
  int columnChunksWithPlainFallback;

  MergeResult toResult(long outputLength, ParquetMetadata footer) {
    return new MergeResult(
        rowCount,
        outputLength,
        rowGroupsWritten,
        rowGroupsCopiedWhole,
        bytesCopiedVerbatim,
        bytesRewritten,
        columnChunksWithMergedDictionary,
        columnChunksWithPlainFallback,
        footer);
  }
}
