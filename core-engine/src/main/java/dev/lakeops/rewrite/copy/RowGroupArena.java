package dev.lakeops.rewrite.copy;

/**
 * One array that the small row groups of an output row group are loaded into side by side, reused
 * from one output row group to the next. Loading each into an array of its own left tens of
 * megabytes of arrays alive across young collections, which the collector copied again and again.
 */
final class RowGroupArena {
  private final int capacity;
  private byte[] bytes;
  private int used;

  /**
   * @param capacity the most bytes the arena holds; allocated on first use
   */
  RowGroupArena(long capacity) {
    if (capacity < 0 || capacity > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("Invalid arena capacity " + capacity);
    }
    this.capacity = (int) capacity;
  }

  boolean fits(long length) {
    return length <= capacity - used;
  }

  /** Reserves {@code length} bytes; returns where they start in {@link #bytes()}. */
  int reserve(int length) {
    if (!fits(length)) {
      throw new IllegalStateException(
          "Arena of " + capacity + " bytes has " + (capacity - used) + " left, not " + length);
    }
    if (bytes == null) {
      bytes = new byte[capacity];
    }
    int offset = used;
    used += length;
    return offset;
  }

  byte[] bytes() {
    return bytes;
  }

  /** Frees every reservation: the row groups loaded so far are no longer read. */
  void reset() {
    used = 0;
  }
}
