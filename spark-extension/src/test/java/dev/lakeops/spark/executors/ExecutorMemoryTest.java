package dev.lakeops.spark.executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.unit.ByteSize;
import org.junit.jupiter.api.Test;

class ExecutorMemoryTest {
  private static final long GIGABYTE = 1L << 30;

  @Test
  void unsetMeansAQuarterOfTheExecutorHeapSplitAcrossItsTaskSlots() {
    ExecutorMemory memory = ExecutorMemory.parse(null);

    assertThat(memory.configured()).isEmpty();
    assertThat(memory.taskShare(4 * GIGABYTE, 1)).isEqualTo(ByteSize.ofBytes(GIGABYTE));
    assertThat(memory.taskShare(4 * GIGABYTE, 4)).isEqualTo(ByteSize.ofMegabytes(256));
  }

  @Test
  void aConfiguredBudgetIsSplitAcrossTheTaskSlots() {
    ExecutorMemory memory = ExecutorMemory.parse("1GB");

    assertThat(memory.configured()).contains(ByteSize.ofBytes(GIGABYTE));
    assertThat(memory.taskShare(8 * GIGABYTE, 2)).isEqualTo(ByteSize.ofMegabytes(512));
    assertThat(ExecutorMemory.parse(" ").configured()).isEmpty();
  }

  @Test
  void badValuesNameTheSettingAndTheFix() {
    assertThatThrownBy(() -> ExecutorMemory.parse("lots"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid spark.lakeops.executor.memory=lots: Invalid size 'lots': use a number with an optional unit,"
                + " e.g. 256MB, 1GB, 1048576");
    assertThatThrownBy(() -> ExecutorMemory.parse("1MB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid spark.lakeops.executor.memory=1MB: use 16MB per task slot or more, e.g. 512MB");
    assertThatThrownBy(() -> ExecutorMemory.parse("64MB").taskShare(8 * GIGABYTE, 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The executor's LakeOps budget 64.0MB gives each of its 8 task slots 8.0MB, less than the 16MB a file"
                + " group needs: raise spark.lakeops.executor.memory or spark.executor.memory");
  }
}
