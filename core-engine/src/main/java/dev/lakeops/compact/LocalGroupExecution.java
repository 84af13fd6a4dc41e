package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * Rewrites groups on threads of this process under the request's memory budget, each group with an
 * equal share of it ({@code budget / concurrency}), spilling to the request's spill directory. On
 * an object store the inputs are fetched ahead ({@link PrefetchedReads}), which takes a quarter of
 * the budget before it is shared out.
 */
final class LocalGroupExecution implements GroupExecution {
  @Override
  public GroupRewriting start(PlannedRewrite rewrite) {
    requireNonNull(rewrite, "rewrite is null");
    MemoryBudget budget = new MemoryBudget(rewrite.request().memoryBudget());
    Optional<PrefetchedReads> prefetched = Optional.empty();
    try {
      prefetched = PrefetchedReads.start(rewrite, budget);
      Table table = prefetched.map(PrefetchedReads::table).orElse(rewrite.table());
      long groupBudget = PrefetchedReads.groupBudgetBytes(budget, prefetched.isPresent());
      GroupRewriterChain chain =
          GroupRewriterChain.assemble(
              table,
              rewrite.layout(),
              rewrite.options(),
              OutputFileNames.forRun(table, rewrite.operationId()),
              budget,
              groupBudget / rewrite.concurrency(),
              rewrite.request().spillDirectory(),
              rewrite.request().verificationMode());
      return new Rewriting(chain, budget, prefetched);
    } catch (RuntimeException e) {
      prefetched.ifPresent(PrefetchedReads::close);
      budget.close();
      throw e;
    }
  }

  private static final class Rewriting implements GroupRewriting {
    private final GroupRewriterChain chain;
    private final MemoryBudget budget;
    private final Optional<PrefetchedReads> prefetched;
    private boolean closed;

    Rewriting(GroupRewriterChain chain, MemoryBudget budget, Optional<PrefetchedReads> prefetched) {
      this.chain = chain;
      this.budget = budget;
      this.prefetched = prefetched;
    }

    @Override
    public RewrittenGroup rewrite(FileGroup group) {
      prefetched.ifPresent(reads -> reads.groupStarting(group));
      try {
        return chain.rewrite(group);
      } finally {
        prefetched.ifPresent(reads -> reads.groupDone(group));
      }
    }

    @Override
    public ExecutionFigures figures() {
      return new ExecutionFigures(budget.peakBytes(), chain.spilledBytes(), chain.spillFiles());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        try {
          prefetched.ifPresent(PrefetchedReads::close);
        } finally {
          budget.close();
        }
      }
    }
  }
}
