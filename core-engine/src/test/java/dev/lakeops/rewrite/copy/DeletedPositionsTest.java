package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;

/**
 * Deleted positions listed once per input and cut into row groups agree with asking the index about
 * every row; a counted index counts each deleted position once.
 */
class DeletedPositionsTest {
  @Test
  void rowGroupsCutFromListedPositionsMatchAskingEveryRow() {
    PositionDeleteIndex index = index(0, 1, 63, 64, 65, 127, 999, 1000, 1001, 2047, 4095);
    DeletedPositions listed = DeletedPositions.listed(index).orElseThrow();

    assertThat(listed.count()).isEqualTo(11);
    long[][] rowGroups = {{0, 1000}, {1000, 1048}, {2048, 2048}, {4096, 10}};
    for (long[] rowGroup : rowGroups) {
      DeletedRows cut = listed.rowsOf(rowGroup[0], rowGroup[1]);
      DeletedRows asked = DeletedRows.of(index, rowGroup[0], rowGroup[1]);
      assertThat(cut.deletedCount()).isEqualTo(asked.deletedCount());
      for (int row = 0; row < rowGroup[1]; row++) {
        assertThat(cut.isDeleted(row)).as("row %d", row).isEqualTo(asked.isDeleted(row));
      }
    }
  }

  @Test
  void nextDeletedFindsEachDeletedRowInOrder() {
    DeletedRows rows = DeletedPositions.listed(index(3, 64, 65, 200)).orElseThrow().rowsOf(0, 300);

    assertThat(rows.nextDeleted(0, 300)).isEqualTo(3);
    assertThat(rows.nextDeleted(4, 300)).isEqualTo(64);
    assertThat(rows.nextDeleted(65, 300)).isEqualTo(65);
    assertThat(rows.nextDeleted(66, 300)).isEqualTo(200);
    assertThat(rows.nextDeleted(66, 150)).isEqualTo(150);
    assertThat(rows.nextDeleted(201, 300)).isEqualTo(300);
    assertThat(DeletedRows.none().nextDeleted(5, 9)).isEqualTo(9);
  }

  @Test
  void countedDeletesCountEachListedPositionOnceAndDropTheFirstRowUncounted() {
    CountedDeletes counted = new CountedDeletes(index(5, 9, 11), true);
    DeletedPositions listed = DeletedPositions.listed(counted).orElseThrow();

    assertThat(counted.deletedRows()).isEqualTo(3);
    DeletedRows rows = listed.rowsOf(0, 20);
    assertThat(rows.deletedCount()).isEqualTo(4);
    assertThat(rows.isDeleted(0)).isTrue();
    assertThat(rows.isDeleted(5)).isTrue();
    assertThat(rows.isDeleted(6)).isFalse();
  }

  @Test
  void indicesThatCannotListTheirPositionsAreAskedRowByRow() {
    PositionDeleteIndex unlisted =
        new PositionDeleteIndex() {
          @Override
          public void delete(long position) {}

          @Override
          public void delete(long start, long end) {}

          @Override
          public boolean isDeleted(long position) {
            return position == 2;
          }

          @Override
          public boolean isEmpty() {
            return false;
          }
        };

    assertThat(DeletedPositions.listed(unlisted)).isEmpty();
  }

  private static PositionDeleteIndex index(long... positions) {
    return Deletes.toPositionIndex(
        CloseableIterable.withNoopClose(LongStream.of(positions).boxed().toList()));
  }
}
