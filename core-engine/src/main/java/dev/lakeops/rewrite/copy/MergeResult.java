package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * What one merge wrote.
 *
 * @param rowCount rows in the output file
 * @param outputLength bytes of the output file
 * @param rowGroupsWritten row groups in the output file
 * @param rowGroupsCopiedWhole output row groups copied byte for byte from one input row group
 * @param bytesCopiedVerbatim compressed page bytes copied unchanged (whole row groups included)
 * @param bytesRewritten compressed page bytes of input pages that were decompressed and rewritten
 *     (dictionary pages merged, dictionary indices remapped or expanded to PLAIN)
 * @param columnChunksWithMergedDictionary output column chunks whose dictionary merges two or more
 *     input dictionaries
 * @param columnChunksWithPlainFallback output column chunks in which some dictionary-encoded input
 *     pages were expanded to PLAIN because the merged dictionary would exceed its limit
 * @param footer the output's footer, e.g. for {@code ParquetUtil.footerMetrics}
 */
public record MergeResult(
    long rowCount,
    long outputLength,
    int rowGroupsWritten,
    int rowGroupsCopiedWhole,
    long bytesCopiedVerbatim,
    long bytesRewritten,
    int columnChunksWithMergedDictionary,
    int columnChunksWithPlainFallback,
    ParquetMetadata footer) {
  public MergeResult {
    requireNonNull(footer, "footer is null");
  }
}
