package dev.lakeops.compact;

import dev.lakeops.rewrite.GroupRewriter;

/**
 * The rewriting of one compaction's groups, as {@link GroupExecution#start} set it up. {@link
 * #rewrite} is called from several threads at once; closing releases what the rewriting holds (e.g.
 * the memory budget) and is safe to call twice.
 */
public interface GroupRewriting extends GroupRewriter, AutoCloseable {
  /** What the rewrites used so far. */
  ExecutionFigures figures();

  @Override
  void close();
}
