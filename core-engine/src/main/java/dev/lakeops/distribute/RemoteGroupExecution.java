package dev.lakeops.distribute;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.ExecutionFigures;
import dev.lakeops.compact.GroupExecution;
import dev.lakeops.compact.GroupRewriting;
import dev.lakeops.compact.PlannedRewrite;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.OutputCleaner;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Table;

/**
 * Rewrites each file group as a {@link GroupTask} on remote workers through a {@link
 * GroupTaskSubmitter}. The driver keeps its own {@link FileGroup}s: results are matched back to
 * them, so the committer validates and removes exactly what the driver planned.
 */
public final class RemoteGroupExecution implements GroupExecution {
  private final GroupTaskSubmitter submitter;

  public RemoteGroupExecution(GroupTaskSubmitter submitter) {
    this.submitter = requireNonNull(submitter, "submitter is null");
  }

  @Override
  public GroupRewriting start(PlannedRewrite rewrite) {
    requireNonNull(rewrite, "rewrite is null");
    return new Rewriting(rewrite, GroupTask.serializable(rewrite.table()));
  }

  private final class Rewriting implements GroupRewriting {
    private final PlannedRewrite rewrite;
    private final Table shippedTable;
    private final AtomicLong peakMemoryBytes = new AtomicLong();
    private final AtomicLong spilledBytes = new AtomicLong();
    private final AtomicInteger spillFiles = new AtomicInteger();

    Rewriting(PlannedRewrite rewrite, Table shippedTable) {
      this.rewrite = rewrite;
      this.shippedTable = shippedTable;
    }

    @Override
    public RewrittenGroup rewrite(FileGroup group) {
      GroupTask task = GroupTask.of(shippedTable, rewrite, group);
      GroupTaskResult result = submitter.submit(task);
      if (result.groupIndex() != group.index()) {
        IllegalStateException mismatch =
            new IllegalStateException(
                "The result for "
                    + task.describe()
                    + " came back for file group "
                    + result.groupIndex());
        OutputCleaner.deleteQuietly(rewrite.table().io(), result.addedFiles(), mismatch);
        throw mismatch;
      }
      peakMemoryBytes.accumulateAndGet(result.peakMemoryBytes(), Math::max);
      spilledBytes.addAndGet(result.spilledBytes());
      spillFiles.addAndGet(result.spillFiles());
      return new RewrittenGroup(
          group,
          result.addedFiles(),
          result.copiedBytes(),
          result.decodedBytes(),
          result.fallbackReason(),
          result.rowAccount());
    }

    @Override
    public ExecutionFigures figures() {
      return new ExecutionFigures(peakMemoryBytes.get(), spilledBytes.get(), spillFiles.get());
    }

    @Override
    public void close() {}
  }
}
