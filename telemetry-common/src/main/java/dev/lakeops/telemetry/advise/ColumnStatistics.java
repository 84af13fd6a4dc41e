package dev.lakeops.telemetry.advise;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What table metadata says about one column.
 *
 * @param distinctCount an estimate of the number of distinct values, when known
 * @param valueRange the value range, when known
 */
public record ColumnStatistics(OptionalLong distinctCount, Optional<ValueRange> valueRange) {
  public ColumnStatistics {
    requireNonNull(distinctCount, "distinctCount is null");
    requireNonNull(valueRange, "valueRange is null");
    if (distinctCount.isPresent() && distinctCount.getAsLong() < 0) {
      throw new IllegalArgumentException(
          "distinctCount must not be negative: " + distinctCount.getAsLong());
    }
  }

  public static ColumnStatistics ofDistinctCount(long distinctCount) {
    return new ColumnStatistics(OptionalLong.of(distinctCount), Optional.empty());
  }
}
