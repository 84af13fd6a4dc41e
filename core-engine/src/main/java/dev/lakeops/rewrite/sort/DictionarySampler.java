package dev.lakeops.rewrite.sort;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Picks the columns not worth a dictionary: from the first {@link #SAMPLE_ROWS} rows a group reads,
 * the columns whose non-null values are nearly all distinct (event ids, amounts, free text). The
 * Parquet writer would otherwise fill a dictionary with them for every row group until it gives up
 * and writes them plain anyway; writing them plain from the start gives the same file for less
 * work.
 */
final class DictionarySampler {
  static final int SAMPLE_ROWS = 32_768;

  /** Distinct non-null values per non-null value above which a column is written plain. */
  static final double DISTINCT_FRACTION = 0.9;

  private static final int MIN_VALUES = 1_000;

  private final List<String> names;
  private final List<Set<Integer>> distinct = new ArrayList<>();
  private final int[] values;
  private int sampledRows;

  /**
   * @param names the data columns' names, in batch order (the batch may have more columns after
   *     them)
   */
  DictionarySampler(List<String> names) {
    this.names = List.copyOf(names);
    names.forEach(name -> distinct.add(new HashSet<>()));
    this.values = new int[names.size()];
  }

  /** Samples the rows of {@code batch} while fewer than {@link #SAMPLE_ROWS} have been seen. */
  void sample(VectorSchemaRoot batch) {
    if (sampledRows >= SAMPLE_ROWS) {
      return;
    }
    int rows = Math.min(batch.getRowCount(), SAMPLE_ROWS - sampledRows);
    for (int column = 0; column < names.size(); column++) {
      FieldVector vector = batch.getVector(column);
      if (vector instanceof BitVector) {
        continue;
      }
      Set<Integer> seen = distinct.get(column);
      for (int row = 0; row < rows; row++) {
        if (!vector.isNull(row)) {
          seen.add(vector.hashCode(row));
          values[column]++;
        }
      }
    }
    sampledRows += rows;
  }

  /** The columns to write without a dictionary. */
  Set<String> plainColumns() {
    Set<String> plain = new HashSet<>();
    for (int column = 0; column < names.size(); column++) {
      if (values[column] >= MIN_VALUES
          && distinct.get(column).size() > DISTINCT_FRACTION * values[column]) {
        plain.add(names.get(column));
      }
    }
    return Set.copyOf(plain);
  }
}
