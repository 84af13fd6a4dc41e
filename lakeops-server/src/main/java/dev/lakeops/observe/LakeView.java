package dev.lakeops.observe;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A read-only view of the lake for the dashboard and its JSON API. */
public interface LakeView {
  /** Each known table's latest evaluation. */
  List<TableSample> tables();

  /** A table's evaluations since {@code since}, oldest first; empty for an unknown table. */
  List<TableSample> history(String table, Instant since);

  /** The latest runs, newest first, of one table or of all. */
  List<RunSummary> runs(Optional<String> table, int limit);

  /** Work queued and not started, in the order it will run. */
  List<QueuedOperation> queue();

  /** The lake-wide memory budget in use. */
  BudgetUse budget();

  /** The serve processes sharing the store, and the suspended operations. */
  default LakeMembers members() {
    return LakeMembers.NONE;
  }
}
