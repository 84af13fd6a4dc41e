package dev.lakeops.rewrite.copy;

import java.util.Arrays;
import java.util.Optional;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The deleted positions of one input file, read from its delete index once and kept as an ascending
 * array, so that each row group's {@link DeletedRows} is cut from it by binary search instead of
 * asking the index about every row.
 */
final class DeletedPositions {
  private static final DeletedPositions NONE = new DeletedPositions(new long[0]);

  private final long[] positions;

  private DeletedPositions(long[] positions) {
    this.positions = positions;
  }

  /**
   * The positions {@code deletes} holds, each passed to its {@code forEach} once; empty when the
   * index cannot list them (its {@code forEach} is unsupported): then ask it about each row.
   */
  static Optional<DeletedPositions> listed(PositionDeleteIndex deletes) {
    if (deletes.isEmpty()) {
      return Optional.of(NONE);
    }
    Collector collector = new Collector();
    try {
      deletes.forEach(collector::add);
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
    return Optional.of(new DeletedPositions(collector.ascending()));
  }

  /** How many positions are deleted. */
  int count() {
    return positions.length;
  }

  /**
   * The deleted rows of a row group of {@code rowCount} rows whose first row is at file position
   * {@code firstPosition}.
   */
  DeletedRows rowsOf(long firstPosition, long rowCount) {
    if (positions.length == 0) {
      return DeletedRows.none();
    }
    int from = lowerBound(firstPosition);
    int to = lowerBound(firstPosition + rowCount);
    if (from == to) {
      return DeletedRows.none();
    }
    return DeletedRows.ofSorted(positions, from, to, firstPosition, rowCount);
  }

  /** The index of the first position at or after {@code position}. */
  private int lowerBound(long position) {
    int index = Arrays.binarySearch(positions, position);
    return index >= 0 ? index : -index - 1;
  }

  /** Positions as a delete index hands them over, in whatever order. */
  private static final class Collector {
    private long[] positions = new long[64];
    private int count;
    private boolean ascending = true;

    void add(long position) {
      if (count == positions.length) {
        positions = Arrays.copyOf(positions, 2 * count);
      }
      if (count > 0 && positions[count - 1] >= position) {
        ascending = false;
      }
      positions[count++] = position;
    }

    long[] ascending() {
      long[] collected = Arrays.copyOf(positions, count);
      if (ascending) {
        return collected;
      }
      Arrays.sort(collected);
      return Arrays.stream(collected).distinct().toArray();
    }
  }
}
