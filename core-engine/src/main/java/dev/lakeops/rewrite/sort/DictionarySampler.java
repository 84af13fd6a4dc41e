package dev.lakeops.rewrite.sort;

import java.util.Arrays;
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

  /**
   * Per column, the hash of each non-null value sampled, in {@code values[column]} leading slots;
   * null once the sample is complete and {@link #plain} holds the verdict.
   */
  private int[][] hashes;

  private final int[] values;
  private int sampledRows;
  private Set<String> plain;

  /**
   * @param names the data columns' names, in batch order (the batch may have more columns after
   *     them)
   */
  DictionarySampler(List<String> names) {
    this.names = List.copyOf(names);
    this.hashes = new int[names.size()][];
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
      if (hashes[column] == null) {
        hashes[column] = new int[SAMPLE_ROWS];
      }
      int[] seen = hashes[column];
      for (int row = 0; row < rows; row++) {
        if (!vector.isNull(row)) {
          seen[values[column]++] = vector.hashCode(row);
        }
      }
    }
    sampledRows += rows;
    if (sampledRows >= SAMPLE_ROWS) {
      // decided now: the hashes are not held while the rest of the group is read and sorted
      plainColumns();
    }
  }

  /** The columns to write without a dictionary. */
  Set<String> plainColumns() {
    if (plain == null) {
      Set<String> columns = new HashSet<>();
      for (int column = 0; column < names.size(); column++) {
        if (values[column] >= MIN_VALUES
            && distinct(hashes[column], values[column]) > DISTINCT_FRACTION * values[column]) {
          columns.add(names.get(column));
        }
      }
      plain = Set.copyOf(columns);
      hashes = null;
    }
    return plain;
  }

  /** How many distinct values the first {@code count} of {@code hashes} hold (sorts them). */
  private static int distinct(int[] hashes, int count) {
    Arrays.sort(hashes, 0, count);
    int distinct = count == 0 ? 0 : 1;
    for (int index = 1; index < count; index++) {
      if (hashes[index] != hashes[index - 1]) {
        distinct++;
      }
    }
    return distinct;
  }
}
