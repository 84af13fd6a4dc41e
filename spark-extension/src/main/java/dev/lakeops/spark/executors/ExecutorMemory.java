package dev.lakeops.spark.executors;

import dev.lakeops.unit.ByteSize;
import java.io.Serial;
import java.io.Serializable;
import java.util.Optional;

/**
 * The memory budget of LakeOps rewrites on one executor ({@value #KEY}), split evenly across the
 * executor's task slots: each file-group task gets its own Arrow root allocator limited to its
 * share. Without the setting, the budget is {@value #DEFAULT_HEAP_PERCENT}% of the executor's
 * maximum heap.
 *
 * @param configuredBytes the setting's value, or 0 when it is not set
 */
public record ExecutorMemory(long configuredBytes) implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  public static final String KEY = "spark.lakeops.executor.memory";
  public static final int DEFAULT_HEAP_PERCENT = 25;
  private static final ByteSize MINIMUM_SHARE = ByteSize.ofMegabytes(16);

  public ExecutorMemory {
    if (configuredBytes < 0) {
      throw new IllegalArgumentException(
          "configuredBytes must not be negative: " + configuredBytes);
    }
  }

  /** Reads the setting's text as the session has it (null when unset). */
  public static ExecutorMemory parse(String text) {
    if (text == null || text.isBlank()) {
      return new ExecutorMemory(0);
    }
    ByteSize size;
    try {
      size = ByteSize.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Invalid " + KEY + "=" + text + ": " + e.getMessage(), e);
    }
    if (size.bytes() < MINIMUM_SHARE.bytes()) {
      throw new IllegalArgumentException(
          "Invalid " + KEY + "=" + text + ": use 16MB per task slot or more, e.g. 512MB");
    }
    return new ExecutorMemory(size.bytes());
  }

  public Optional<ByteSize> configured() {
    return configuredBytes == 0 ? Optional.empty() : Optional.of(ByteSize.ofBytes(configuredBytes));
  }

  /**
   * The share of one task on an executor with {@code maxHeapBytes} of heap and {@code taskSlots}
   * tasks at once.
   *
   * @throws IllegalArgumentException when the share is below what one file group needs
   */
  public ByteSize taskShare(long maxHeapBytes, int taskSlots) {
    long budget = configuredBytes > 0 ? configuredBytes : maxHeapBytes * DEFAULT_HEAP_PERCENT / 100;
    long share = budget / Math.max(1, taskSlots);
    if (share < MINIMUM_SHARE.bytes()) {
      throw new IllegalArgumentException(
          "The executor's LakeOps budget "
              + ByteSize.ofBytes(budget)
              + " gives each of its "
              + taskSlots
              + " task slots "
              + ByteSize.ofBytes(share)
              + ", less than the 16MB a file group needs: raise "
              + KEY
              + " or spark.executor.memory");
    }
    return ByteSize.ofBytes(share);
  }
}
