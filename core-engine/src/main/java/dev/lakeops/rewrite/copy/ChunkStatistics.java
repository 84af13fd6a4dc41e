package dev.lakeops.rewrite.copy;

import java.util.List;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.PrimitiveType;

/** Merges the statistics of column chunks that are concatenated into one. */
final class ChunkStatistics {
  private ChunkStatistics() {}

  /**
   * The merged min, max and null count, or empty statistics (none written) when any chunk lacks
   * complete statistics.
   */
  static Statistics<?> merge(PrimitiveType type, List<ColumnChunkMetaData> chunks) {
    Statistics<?> merged = null;
    for (ColumnChunkMetaData chunk : chunks) {
      Statistics<?> statistics = chunk.getStatistics();
      if (!isComplete(statistics, chunk.getValueCount())) {
        return none(type);
      }
      Statistics<?> typed = retype(statistics, type);
      if (merged == null) {
        merged = typed;
      } else {
        merged.mergeStatistics(typed);
      }
    }
    return merged == null ? none(type) : merged;
  }

  /**
   * The same statistics for the output column's type, which may differ from the input chunk's in
   * name (a renamed column) or nullability; physical and logical type, hence ordering, are equal.
   */
  private static Statistics<?> retype(Statistics<?> statistics, PrimitiveType type) {
    Statistics.Builder builder =
        Statistics.getBuilderForReading(type).withNumNulls(statistics.getNumNulls());
    if (statistics.hasNonNullValue()) {
      builder.withMin(statistics.getMinBytes()).withMax(statistics.getMaxBytes());
    }
    return builder.build();
  }

  static Statistics<?> none(PrimitiveType type) {
    return Statistics.getBuilderForReading(type).build();
  }

  /** Complete: the null count is known, and min/max are present unless every value is null. */
  private static boolean isComplete(Statistics<?> statistics, long valueCount) {
    return statistics != null
        && !statistics.isEmpty()
        && statistics.isNumNullsSet()
        && (statistics.hasNonNullValue() || statistics.getNumNulls() == valueCount);
  }
}
