package dev.lakeops.rewrite.sort;

/** A set of column indexes as bits in an array of longs, one bit per column. */
final class ColumnSet {
  private ColumnSet() {}

  /** The array length that holds {@code columns} columns. */
  static int words(int columns) {
    return (columns + Long.SIZE - 1) / Long.SIZE;
  }

  static void add(long[] set, int column) {
    set[column >>> 6] |= 1L << column;
  }

  static boolean contains(long[] set, int column) {
    return (set[column >>> 6] & (1L << column)) != 0;
  }

  /** Adds every column of {@code other} to {@code set}. */
  static void addAll(long[] set, long[] other) {
    for (int word = 0; word < set.length; word++) {
      set[word] |= other[word];
    }
  }
}
