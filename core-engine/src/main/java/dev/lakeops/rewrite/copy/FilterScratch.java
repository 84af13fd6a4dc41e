package dev.lakeops.rewrite.copy;

import dev.lakeops.rewrite.codec.HybridRunCodec;

/**
 * The working arrays of {@link DeletedRowPageFilter}s, shared by every filter of one merge (which
 * filters one page at a time): the decompressed page, its unpacked definition levels and dictionary
 * ids, and the kept entries. Sized by the largest page met, then reused page after page. Not
 * thread-safe.
 */
final class FilterScratch {
  private final PageBytes page = new PageBytes(1 << 16);
  private int[] levels = new int[0];
  private int[] keptLevels = new int[0];
  private int[] keptValues = new int[0];
  private int[] ids = new int[0];

  /** The decompressed body of the page being filtered. */
  PageBytes page() {
    return page;
  }

  /** An array for {@code entries} unpacked definition levels. */
  int[] levels(int entries) {
    if (levels.length < HybridRunCodec.decodeLength(entries)) {
      levels = new int[HybridRunCodec.decodeLength(entries)];
    }
    return levels;
  }

  /** An array for the definition levels of up to {@code entries} kept entries. */
  int[] keptLevels(int entries) {
    if (keptLevels.length < entries + 8) {
      keptLevels = new int[entries + 8];
    }
    return keptLevels;
  }

  /** An array for the indices of up to {@code values} kept values. */
  int[] keptValues(int values) {
    if (keptValues.length < values) {
      keptValues = new int[values];
    }
    return keptValues;
  }

  /** An array for {@code count} unpacked dictionary ids. */
  int[] ids(int count) {
    if (ids.length < HybridRunCodec.decodeLength(count)) {
      ids = new int[HybridRunCodec.decodeLength(count)];
    }
    return ids;
  }
}
