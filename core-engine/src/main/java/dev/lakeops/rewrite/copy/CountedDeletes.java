package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.function.LongConsumer;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The deleted positions of one merge input, counting how many of the positions the merge asks about
 * are deleted: the merge asks about each row of the file once, so the count is the rows the deletes
 * remove. With {@code dropFirstRow} (the dropped-row writer fault of tests) position 0 reads as
 * deleted too, without being counted: the merge then loses a row the verifier must miss.
 */
final class CountedDeletes implements PositionDeleteIndex {
  private final PositionDeleteIndex deletes;
  private final boolean dropFirstRow;
  private long deletedRows;

  CountedDeletes(PositionDeleteIndex deletes, boolean dropFirstRow) {
    this.deletes = requireNonNull(deletes, "deletes is null");
    this.dropFirstRow = dropFirstRow;
  }

  /** Rows asked about that the deletes remove. */
  long deletedRows() {
    return deletedRows;
  }

  @Override
  public boolean isDeleted(long position) {
    boolean deleted = !deletes.isEmpty() && deletes.isDeleted(position);
    if (deleted) {
      deletedRows++;
    }
    return deleted || (dropFirstRow && position == 0);
  }

  /**
   * Passes every deleted position once, in ascending order, counting them: the merge walks each
   * input once, asking for its positions instead of about each row.
   */
  @Override
  public void forEach(LongConsumer consumer) {
    if (dropFirstRow && (deletes.isEmpty() || !deletes.isDeleted(0))) {
      consumer.accept(0);
    }
    if (deletes.isEmpty()) {
      return;
    }
    deletes.forEach(
        position -> {
          deletedRows++;
          consumer.accept(position);
        });
  }

  @Override
  public boolean isEmpty() {
    return deletes.isEmpty() && !dropFirstRow;
  }

  @Override
  public void delete(long position) {
    throw new UnsupportedOperationException("The deleted positions of a merge input are read-only");
  }

  @Override
  public void delete(long positionStart, long positionEnd) {
    throw new UnsupportedOperationException("The deleted positions of a merge input are read-only");
  }
}
