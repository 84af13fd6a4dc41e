package dev.lakeops.rewrite.sort;

/**
 * The rows one gather copies, in target order: row {@code rows[i]} of {@code sources[i]}, for each
 * {@code i < count}, and two scratch arrays of at least {@code count} entries the copy of a
 * variable-width column notes each value's address and length in. The arrays are the gather's own,
 * reused from copy to copy, so a value is only valid for the copy it was made for.
 */
record GatherPicks(
    SourceColumns[] sources, int[] rows, int count, long[] valueAddresses, int[] valueLengths) {
  /** Picks with scratch arrays of their own. */
  static GatherPicks of(SourceColumns[] sources, int[] rows, int count) {
    return new GatherPicks(sources, rows, count, new long[count], new int[count]);
  }
}
