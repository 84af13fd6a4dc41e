package dev.lakeops.spark.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ObjectStoreShapeTest {
  @Test
  void parsesACommaSeparatedListInOrder() {
    assertThat(ObjectStoreShape.parseList(" Unpartitioned, partitioned "))
        .containsExactly(ObjectStoreShape.UNPARTITIONED, ObjectStoreShape.PARTITIONED);
  }

  @Test
  void bothShapesWriteEightFilesPerCommit() {
    assertThat(ObjectStoreShape.PARTITIONED.filesPerCommit()).isEqualTo(8);
    assertThat(ObjectStoreShape.UNPARTITIONED.filesPerCommit()).isEqualTo(8);
    assertThat(BenchmarkSize.SMALL.files() % 8).isZero();
    assertThat(BenchmarkSize.TINY.files() % 8).isZero();
  }

  @Test
  void anUnknownShapeNamesTheValueAndTheChoices() {
    assertThatThrownBy(() -> ObjectStoreShape.parseList("partitioned,bucketed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown table shape 'bucketed' in -Dlakeops.benchmark.objectstore.shapes: use"
                + " partitioned, unpartitioned");
  }

  @Test
  void anEmptyListIsRefused() {
    assertThatThrownBy(() -> ObjectStoreShape.parseList(" , "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "No table shape in -Dlakeops.benchmark.objectstore.shapes: use partitioned,"
                + " unpartitioned or both");
  }
}
