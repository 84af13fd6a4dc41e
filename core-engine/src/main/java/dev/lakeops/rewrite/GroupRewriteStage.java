package dev.lakeops.rewrite;

import dev.lakeops.plan.FileGroup;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One stage of a file group's rewrite (the decode-free merge, the Arrow or generic decoding path,
 * the external sort, equality-delete application). The caller owns the group's allocator, limited
 * to the group's share of the budget, and closes it; a stage takes a named child of it, and a stage
 * that wraps another hands the wrapped one the same allocator, so the stages of one group together
 * never hold more than its share.
 */
public interface GroupRewriteStage {
  /**
   * Writes the live rows of {@code group} into new files, with memory from {@code groupAllocator}
   * only. On failure every file written so far is deleted before the exception propagates.
   */
  RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator);

  /** A child of {@code groupAllocator} for one stage, limited to what the group has left. */
  static BufferAllocator stageAllocator(BufferAllocator groupAllocator, String name) {
    return groupAllocator.newChildAllocator(name, 0, groupAllocator.getHeadroom());
  }
}
