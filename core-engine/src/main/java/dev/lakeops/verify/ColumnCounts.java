package dev.lakeops.verify;

import java.io.Serial;
import java.io.Serializable;

/**
 * The value and null counts of one column over some data files, as their metrics state them.
 *
 * @param valueCount values, nulls included
 * @param nullCount null values
 */
public record ColumnCounts(long valueCount, long nullCount) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  public ColumnCounts plus(ColumnCounts other) {
    return new ColumnCounts(valueCount + other.valueCount, nullCount + other.nullCount);
  }
}
