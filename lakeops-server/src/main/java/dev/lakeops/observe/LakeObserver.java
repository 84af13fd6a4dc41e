package dev.lakeops.observe;

import java.util.List;

/**
 * What the daemon reports as it works. Implementations must be cheap and must not throw: the daemon
 * calls them on its own threads.
 */
public interface LakeObserver {
  /** A table was evaluated. */
  void tableEvaluated(TableSample sample);

  /** A table was dropped from the catalog; forget it. */
  void tableRemoved(String table);

  /** The queue of work not started yet, in the order it will run. */
  void queueChanged(List<QueuedOperation> queue);

  /** Memory of the lake-wide budget now held by running jobs. */
  void budgetChanged(BudgetUse budget);

  /** A run started (status {@code running}). */
  void runStarted(RunSummary run);

  /** A run ended, whatever its status. */
  void runFinished(RunSummary run);

  /** A table was skipped because another engine held its lock. */
  void lockSkipped(String table);

  /**
   * The daemons sharing the store, as this one ({@code self}) last saw them: the live members and
   * the owner of each table.
   */
  default void membersChanged(
      String self,
      List<dev.lakeops.ledger.MemberRow> liveMembers,
      java.util.Map<String, String> owners) {}

  /** The operations suspended after failing in a row, all of them (not a change). */
  default void suspensionsChanged(List<dev.lakeops.ledger.SuspensionRow> suspended) {}

  /** Sends every report to each of {@code observers}, in order. */
  static LakeObserver all(List<LakeObserver> observers) {
    return new CompositeLakeObserver(observers);
  }
}
