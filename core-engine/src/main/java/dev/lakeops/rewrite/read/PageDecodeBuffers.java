package dev.lakeops.rewrite.read;

import dev.lakeops.rewrite.codec.HybridRunCodec;

/**
 * The arrays one column's pages decompress into and decode their definition levels and dictionary
 * ids into, reused from page to page (a page is consumed before the next is read), grown when a
 * page is larger: reading then allocates nothing per page.
 */
final class PageDecodeBuffers {
  private int[] levels = new int[0];
  private int[] ids = new int[0];
  private byte[] pageBytes = new byte[0];

  /**
   * An array of at least {@code size} bytes for a decompressed page, valid until the next call;
   * grown with an eighth to spare, so pages of about the same size share it.
   */
  byte[] pageBytes(int size) {
    if (pageBytes.length < size) {
      pageBytes = new byte[size + size / 8];
    }
    return pageBytes;
  }

  /** An array for {@code count} definition levels, valid until the next call. */
  int[] levels(int count) {
    if (levels.length < HybridRunCodec.decodeLength(count)) {
      levels = new int[HybridRunCodec.decodeLength(count)];
    }
    return levels;
  }

  /** An array for {@code count} dictionary ids, valid until the next call. */
  int[] ids(int count) {
    if (ids.length < HybridRunCodec.decodeLength(count)) {
      ids = new int[HybridRunCodec.decodeLength(count)];
    }
    return ids;
  }
}
