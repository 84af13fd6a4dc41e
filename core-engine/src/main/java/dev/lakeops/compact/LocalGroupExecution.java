package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.RewrittenGroup;

/**
 * Rewrites groups on threads of this process under the request's memory budget, each group with an
 * equal share of it ({@code budget / concurrency}), spilling to the request's spill directory.
 */
final class LocalGroupExecution implements GroupExecution {
  @Override
  public GroupRewriting start(PlannedRewrite rewrite) {
    requireNonNull(rewrite, "rewrite is null");
    MemoryBudget budget = new MemoryBudget(rewrite.request().memoryBudget());
    try {
      GroupRewriterChain chain =
          GroupRewriterChain.assemble(
              rewrite.table(),
              rewrite.layout(),
              rewrite.options(),
              OutputFileNames.forRun(rewrite.table(), rewrite.operationId()),
              budget,
              budget.limit().bytes() / rewrite.concurrency(),
              rewrite.request().spillDirectory());
      return new Rewriting(chain, budget);
    } catch (RuntimeException e) {
      budget.close();
      throw e;
    }
  }

  private static final class Rewriting implements GroupRewriting {
    private final GroupRewriterChain chain;
    private final MemoryBudget budget;
    private boolean closed;

    Rewriting(GroupRewriterChain chain, MemoryBudget budget) {
      this.chain = chain;
      this.budget = budget;
    }

    @Override
    public RewrittenGroup rewrite(FileGroup group) {
      return chain.rewrite(group);
    }

    @Override
    public ExecutionFigures figures() {
      return new ExecutionFigures(budget.peakBytes(), chain.spilledBytes(), chain.spillFiles());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        budget.close();
      }
    }
  }
}
