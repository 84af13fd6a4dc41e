package dev.lakeops.compact;

/**
 * What the sort and zorder strategies add; all zero for binpack.
 *
 * @param spilledBytes bytes written to spill files, intermediate merge runs and equality-delete
 *     partitions included ({@code spilled_bytes})
 * @param spillFiles spill files written ({@code spill_files}); all are deleted before the
 *     compaction returns
 * @param overlappingFiles new files whose lower/upper bounds on the leading sort column strictly
 *     overlap another new file's in the same partition ({@code overlapping_files})
 */
public record LayoutFigures(long spilledBytes, int spillFiles, int overlappingFiles) {
  public static final LayoutFigures NONE = new LayoutFigures(0, 0, 0);
}
