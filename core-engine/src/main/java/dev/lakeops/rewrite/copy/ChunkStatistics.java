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
    long valueCount = 0;
    for (ColumnChunkMetaData chunk : chunks) {
      valueCount += chunk.getValueCount();
    }
    return merge(type, chunks, 0, valueCount);
  }

  /**
   * Like {@link #merge(PrimitiveType, List)} for chunks that lost rows to deletes: {@code
   * nullsRemoved} nulls went with them, and {@code valueCount} values are left. Min and max stay
   * the inputs' (bounds that may no longer be reached, which readers only use to skip data); they
   * are left out when only nulls are left.
   */
  static Statistics<?> merge(
      PrimitiveType type, List<ColumnChunkMetaData> chunks, long nullsRemoved, long valueCount) {
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
    if (merged == null) {
      return none(type);
    }
    long nulls = merged.getNumNulls() - nullsRemoved;
    Statistics.Builder builder = Statistics.getBuilderForReading(type).withNumNulls(nulls);
    if (merged.hasNonNullValue() && nulls < valueCount) {
      builder.withMin(merged.getMinBytes()).withMax(merged.getMaxBytes());
    }
    return builder.build();
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
