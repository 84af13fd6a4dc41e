package dev.lakeops.rewrite.copy;

import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * Which rows of one row group are deleted, as a bitmap over the row group's rows (one bit per row).
 * Immutable once built.
 */
final class DeletedRows {
  private static final DeletedRows NONE = new DeletedRows(new long[0], 0, 0);

  private final long[] words;
  private final int rowCount;
  private final int deletedCount;

  private DeletedRows(long[] words, int rowCount, int deletedCount) {
    this.words = words;
    this.rowCount = rowCount;
    this.deletedCount = deletedCount;
  }

  static DeletedRows none() {
    return NONE;
  }

  /**
   * The rows of a row group of {@code rowCount} rows, the first at file position {@code
   * firstPosition}, that {@code deletes} deletes. Asks {@code deletes} in ascending order.
   */
  static DeletedRows of(PositionDeleteIndex deletes, long firstPosition, long rowCount) {
    if (deletes.isEmpty()) {
      return NONE;
    }
    if (rowCount > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("A row group of " + rowCount + " rows is too large");
    }
    int rows = (int) rowCount;
    long[] words = new long[(rows + 63) >>> 6];
    int deleted = 0;
    for (int row = 0; row < rows; row++) {
      if (deletes.isDeleted(firstPosition + row)) {
        words[row >>> 6] |= 1L << row;
        deleted++;
      }
    }
    return deleted == 0 ? NONE : new DeletedRows(words, rows, deleted);
  }

  /**
   * The rows of a row group of {@code rowCount} rows whose first row is at file position {@code
   * firstPosition}, from {@code positions[from, to)}: ascending, distinct, all within the row
   * group.
   */
  static DeletedRows ofSorted(
      long[] positions, int from, int to, long firstPosition, long rowCount) {
    if (rowCount > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException("A row group of " + rowCount + " rows is too large");
    }
    if (from == to) {
      return NONE;
    }
    int rows = (int) rowCount;
    long[] words = new long[(rows + 63) >>> 6];
    for (int index = from; index < to; index++) {
      int row = (int) (positions[index] - firstPosition);
      if (row < 0 || row >= rows) {
        throw new IllegalArgumentException(
            "Deleted position " + positions[index] + " is outside the row group");
      }
      words[row >>> 6] |= 1L << row;
    }
    return new DeletedRows(words, rows, to - from);
  }

  /** The first deleted row in {@code [from, to)}, or {@code to} when none is. */
  int nextDeleted(int from, int to) {
    if (deletedCount == 0 || from >= to) {
      return to;
    }
    int word = from >>> 6;
    long bits = words[word] & (-1L << from);
    while (true) {
      if (bits != 0) {
        return Math.min(to, (word << 6) + Long.numberOfTrailingZeros(bits));
      }
      word++;
      if (word >= words.length || (word << 6) >= to) {
        return to;
      }
      bits = words[word];
    }
  }

  boolean isDeleted(int row) {
    return deletedCount != 0 && (words[row >>> 6] >>> row & 1) != 0;
  }

  /** Whether any of rows {@code [from, to)} is deleted. */
  boolean anyDeletedIn(int from, int to) {
    if (deletedCount == 0 || from >= to) {
      return false;
    }
    int firstWord = from >>> 6;
    int lastWord = (to - 1) >>> 6;
    for (int word = firstWord; word <= lastWord; word++) {
      long bits = words[word];
      if (word == firstWord) {
        bits &= -1L << from;
      }
      if (word == lastWord) {
        bits &= -1L >>> (63 - ((to - 1) & 63));
      }
      if (bits != 0) {
        return true;
      }
    }
    return false;
  }

  /** How many rows are deleted. */
  int deletedCount() {
    return deletedCount;
  }

  /** Whether no row is deleted. */
  boolean isEmpty() {
    return deletedCount == 0;
  }

  /** Whether every one of the row group's rows is deleted. */
  boolean deletesAll() {
    return deletedCount != 0 && deletedCount == rowCount;
  }
}
