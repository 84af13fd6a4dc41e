package dev.lakeops.rewrite.read;

import java.util.Arrays;
import java.util.function.LongConsumer;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * Deleted row positions of one data file as a sorted array, read once and then asked in row order:
 * {@link #isDeleted} keeps a cursor, so a reader walking the file front to back pays one comparison
 * per row instead of a bitmap lookup; positions asked out of order fall back to a binary search.
 * Not for sharing between threads; immutable apart from the cursor.
 */
final class SortedPositions implements PositionDeleteIndex {
  private final long[] positions;
  private int cursor;

  private SortedPositions(long[] positions) {
    this.positions = positions;
  }

  /** The distinct values among the first {@code count} of {@code positions}, which it sorts. */
  static SortedPositions of(long[] positions, int count) {
    Arrays.sort(positions, 0, count);
    int distinct = 0;
    for (int index = 0; index < count; index++) {
      if (distinct == 0 || positions[distinct - 1] != positions[index]) {
        positions[distinct++] = positions[index];
      }
    }
    return new SortedPositions(Arrays.copyOf(positions, distinct));
  }

  @Override
  public boolean isDeleted(long position) {
    if (cursor > 0 && positions[cursor - 1] >= position) {
      // asked behind the cursor: search instead of walking back
      int found = Arrays.binarySearch(positions, 0, cursor, position);
      return found >= 0;
    }
    while (cursor < positions.length && positions[cursor] < position) {
      cursor++;
    }
    if (cursor < positions.length && positions[cursor] == position) {
      cursor++;
      return true;
    }
    return false;
  }

  @Override
  public boolean isEmpty() {
    return positions.length == 0;
  }

  @Override
  public long cardinality() {
    return positions.length;
  }

  @Override
  public void forEach(LongConsumer consumer) {
    for (long position : positions) {
      consumer.accept(position);
    }
  }

  @Override
  public void delete(long position) {
    throw new UnsupportedOperationException("Sorted positions are read-only");
  }

  @Override
  public void delete(long posStart, long posEnd) {
    throw new UnsupportedOperationException("Sorted positions are read-only");
  }
}
