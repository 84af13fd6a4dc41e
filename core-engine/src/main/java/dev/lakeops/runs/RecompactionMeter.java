package dev.lakeops.runs;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.FileScanTask;

/**
 * Counts the rewritten input bytes that an earlier LakeOps compaction wrote (their file names carry
 * the compactor's {@code lakeops-} operation id). A table whose compactions mostly rewrite such
 * bytes does not converge. Passes every event on to {@code delegate}.
 */
public final class RecompactionMeter implements CompactionListener {
  /** The marker LakeOps' compactor puts into the names of the files it writes. */
  public static final String COMPACTED_FILE_MARKER = "-lakeops-";

  private final CompactionListener delegate;
  private final AtomicLong recompactedBytes = new AtomicLong();

  public RecompactionMeter(CompactionListener delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public void planned(RewritePlan plan) {
    delegate.planned(plan);
  }

  @Override
  public void groupRewritten(RewrittenGroup group) {
    for (FileScanTask task : group.group().tasks()) {
      if (task.file().location().contains(COMPACTED_FILE_MARKER)) {
        recompactedBytes.addAndGet(task.file().fileSizeInBytes());
      }
    }
    delegate.groupRewritten(group);
  }

  public long recompactedBytes() {
    return recompactedBytes.get();
  }
}
