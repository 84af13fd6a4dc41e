package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

class TestChunkStatistics {
  private static final PrimitiveType TYPE =
      Types.optional(PrimitiveType.PrimitiveTypeName.INT64).id(1).named("id");

  @Test
  void mergesMinMaxAndNullCounts() {
    Statistics<?> merged =
        ChunkStatistics.merge(
            TYPE, List.of(chunk(statistics(5, 9, 1), 10), chunk(statistics(-3, 7, 2), 10)));

    assertThat(merged.genericGetMin()).isEqualTo(-3L);
    assertThat(merged.genericGetMax()).isEqualTo(9L);
    assertThat(merged.getNumNulls()).isEqualTo(3);
  }

  @Test
  void writesNoneWhenAnyChunkLacksStatistics() {
    Statistics<?> merged =
        ChunkStatistics.merge(
            TYPE,
            List.of(
                chunk(statistics(5, 9, 1), 10),
                chunk(Statistics.getBuilderForReading(TYPE).build(), 10)));

    assertThat(merged.isEmpty()).isTrue();
    assertThat(merged.isNumNullsSet()).isFalse();
  }

  @Test
  void writesNoneWhenMinMaxAreMissingForNonNullValues() {
    Statistics<?> nullCountOnly = Statistics.getBuilderForReading(TYPE).withNumNulls(2).build();

    assertThat(ChunkStatistics.merge(TYPE, List.of(chunk(nullCountOnly, 10))).isEmpty()).isTrue();
    assertThat(ChunkStatistics.merge(TYPE, List.of(chunk(nullCountOnly, 2))).getNumNulls())
        .isEqualTo(2);
  }

  private static Statistics<?> statistics(long min, long max, long nulls) {
    LongStatistics statistics = (LongStatistics) Statistics.createStats(TYPE);
    statistics.updateStats(min);
    statistics.updateStats(max);
    statistics.incrementNumNulls(nulls);
    return statistics;
  }

  private static ColumnChunkMetaData chunk(Statistics<?> statistics, long valueCount) {
    return ColumnChunkMetaData.get(
        ColumnPath.get("id"),
        TYPE,
        CompressionCodecName.ZSTD,
        new EncodingStats.Builder().addDataEncoding(Encoding.PLAIN).build(),
        Set.of(Encoding.PLAIN),
        statistics,
        4,
        0,
        valueCount,
        100,
        100);
  }
}
