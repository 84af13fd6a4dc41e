package dev.lakeops.health;

/**
 * How much of what the table's recent compactions rewrote had itself been written by an earlier
 * compaction: the non-convergence signal (re-compacting the same bytes again and again).
 *
 * @param compactions recent compactions measured (replace snapshots that removed data files)
 * @param rewrittenBytes data bytes those compactions removed
 * @param recompactedBytes of those, bytes written by an earlier replace snapshot
 */
public record CompactionConvergence(int compactions, long rewrittenBytes, long recompactedBytes) {
  public static final CompactionConvergence NONE = new CompactionConvergence(0, 0, 0);

  /** Share of rewritten bytes that had been written by an earlier compaction, 0 when none. */
  public double recompactedShare() {
    return rewrittenBytes == 0 ? 0 : recompactedBytes / (double) rewrittenBytes;
  }
}
