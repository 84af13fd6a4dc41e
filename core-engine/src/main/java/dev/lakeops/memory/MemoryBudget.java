package dev.lakeops.memory;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import dev.lakeops.unit.ByteSize;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The process-side memory budget of one operation: an Arrow root allocator with a hard limit. Every
 * buffer a rewrite holds (Arrow batches and Parquet page buffers alike) comes from a named child of
 * it, so exceeding the budget fails an allocation instead of growing the heap.
 */
public final class MemoryBudget implements AutoCloseable {
  /** The smallest budget a rewrite runs in. */
  public static final ByteSize MINIMUM = ByteSize.ofMegabytes(16);

  /**
   * The budget of one rewrite or conversion when the caller gives none: the default of the {@code
   * memory_budget} argument on every host.
   */
  public static final ByteSize DEFAULT_LIMIT = ByteSize.ofMegabytes(256);

  private final ByteSize limit;
  private final RootAllocator root;

  public MemoryBudget(ByteSize limit) {
    this.limit = requireUsable(limit);
    this.root = new RootAllocator(limit.bytes());
  }

  /**
   * Returns {@code limit} when a rewrite can run within it; refuses a smaller one, so that a caller
   * can check a budget before it changes anything.
   */
  public static ByteSize requireUsable(ByteSize limit) {
    requireNonNull(limit, "limit is null");
    if (limit.bytes() < MINIMUM.bytes()) {
      throw new InvalidArgumentException(
          "Memory budget " + limit + " is too small: use {memory_budget} 16MB or more");
    }
    return limit;
  }

  public ByteSize limit() {
    return limit;
  }

  /** A child allocator for one component, limited to {@code share} of the budget. */
  public BufferAllocator newChild(String name, long share) {
    return root.newChildAllocator(name, 0, Math.min(share, limit.bytes()));
  }

  public long peakBytes() {
    return root.getPeakMemoryAllocation();
  }

  public long allocatedBytes() {
    return root.getAllocatedMemory();
  }

  @Override
  public void close() {
    root.close();
  }
}
