package dev.lakeops.learn;

import java.util.List;

/** Where the planner reads a table's finished compactions from. */
@FunctionalInterface
public interface RunHistory {
  /** The table's most recent succeeded compactions the planner sized, newest first. */
  List<RunObservation> compactions(String table, int limit);

  /**
   * Commit conflicts of the table's {@code limit} most recent finished compactions, whoever ran
   * them (the daemon, the CLI, the engines) and however they ended.
   */
  default long recentCommitConflicts(String table, int limit) {
    return 0;
  }
}
