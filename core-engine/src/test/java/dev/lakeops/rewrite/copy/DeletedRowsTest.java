package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;

class DeletedRowsTest {
  @Test
  void rowsAreRelativeToTheRowGroupsFirstPosition() {
    PositionDeleteIndex deletes = positions(1000, 1063, 1064, 1200, 5000);

    DeletedRows rows = DeletedRows.of(deletes, 1000, 300);

    assertThat(rows.deletedCount()).isEqualTo(4);
    assertThat(rows.isDeleted(0)).isTrue();
    assertThat(rows.isDeleted(1)).isFalse();
    assertThat(rows.isDeleted(63)).isTrue();
    assertThat(rows.isDeleted(64)).isTrue();
    assertThat(rows.isDeleted(200)).isTrue();
    assertThat(rows.deletesAll()).isFalse();
  }

  @Test
  void rangesAcrossWordBoundariesSeeOnlyTheirOwnRows() {
    DeletedRows rows = DeletedRows.of(positions(63, 64, 130), 0, 200);

    assertThat(rows.anyDeletedIn(0, 63)).isFalse();
    assertThat(rows.anyDeletedIn(0, 64)).isTrue();
    assertThat(rows.anyDeletedIn(63, 64)).isTrue();
    assertThat(rows.anyDeletedIn(65, 130)).isFalse();
    assertThat(rows.anyDeletedIn(65, 131)).isTrue();
    assertThat(rows.anyDeletedIn(131, 200)).isFalse();
    assertThat(rows.anyDeletedIn(64, 64)).isFalse();
  }

  @Test
  void noneAndAll() {
    assertThat(DeletedRows.of(positions(5), 10, 100).isEmpty()).isTrue();
    assertThat(DeletedRows.of(positions(10, 11, 12), 10, 3).deletesAll()).isTrue();
    assertThat(DeletedRows.none().anyDeletedIn(0, 10)).isFalse();
  }

  private static PositionDeleteIndex positions(long... positions) {
    return Deletes.toPositionIndex(
        CloseableIterable.withNoopClose(
            List.of(java.util.Arrays.stream(positions).boxed().toArray(Long[]::new))));
  }
}
