package dev.lakeops.compact;

/**
 * Where the file groups of a compaction are rewritten: on threads of this process ({@link #LOCAL}),
 * or as tasks on other machines (e.g. Spark executors, see {@code
 * dev.lakeops.distribute.RemoteGroupExecution}). Planning and committing stay with {@link
 * TableCompactor} either way.
 */
public interface GroupExecution {
  /** Rewrites groups in this process, under the request's memory budget. */
  GroupExecution LOCAL = new LocalGroupExecution();

  /** Starts rewriting the groups of {@code rewrite}; the caller closes what it returns. */
  GroupRewriting start(PlannedRewrite rewrite);
}
