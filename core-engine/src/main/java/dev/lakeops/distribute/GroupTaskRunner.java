package dev.lakeops.distribute;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.GroupRewriterChain;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.RewrittenGroup;
import org.apache.iceberg.Table;

/**
 * Rewrites one {@link GroupTask} where it landed: a memory budget of its own (a root allocator
 * limited to the attempt's share), the same rewriters the driver would use, output files named
 * after the attempt. On failure every file the attempt wrote is deleted before the exception
 * propagates; an attempt killed outright leaves its files unreferenced, for the orphan-file pass.
 */
public final class GroupTaskRunner {
  private GroupTaskRunner() {}

  public static GroupTaskResult run(GroupTask task, TaskAttempt attempt) {
    requireNonNull(task, "task is null");
    requireNonNull(attempt, "attempt is null");
    Table table = task.table();
    RewriteOptions options = RewriteOptions.parse(table, task.options());
    RewrittenGroup rewritten = null;
    try (MemoryBudget budget = new MemoryBudget(attempt.memoryShare())) {
      GroupRewriterChain chain =
          GroupRewriterChain.assemble(
              table,
              task.layout(),
              options,
              OutputFileNames.forAttempt(
                  table, task.operationId(), task.group().index(), attempt.tag()),
              budget,
              attempt.memoryShare().bytes(),
              attempt.spillDirectory(),
              task.verification());
      rewritten = chain.rewrite(task.group());
      return new GroupTaskResult(
          task.group().index(),
          attempt.tag(),
          rewritten.addedFiles(),
          rewritten.copiedBytes(),
          rewritten.decodedBytes(),
          budget.peakBytes(),
          chain.spilledBytes(),
          chain.spillFiles(),
          rewritten.fallbackReason(),
          rewritten.rowAccount());
    } catch (RuntimeException e) {
      if (rewritten != null) {
        // the rewrite succeeded but its budget did not close cleanly: nothing will commit the files
        OutputCleaner.deleteQuietly(table.io(), rewritten.addedFiles(), e);
      }
      throw e;
    }
  }
}
