package dev.lakeops.rewrite.sort;

/**
 * The rows one gather copies, in target order: row {@code rows[i]} of {@code sources[i]}, for each
 * {@code i < count}. The arrays are the gather's own, reused from copy to copy, so a value is only
 * valid for the copy it was made for.
 */
record GatherPicks(SourceColumns[] sources, int[] rows, int count) {}
