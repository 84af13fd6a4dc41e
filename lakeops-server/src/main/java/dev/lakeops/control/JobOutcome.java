package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunFigures;

/**
 * How a job ended.
 *
 * @param result what happened
 * @param detail the one-line summary or error for the log
 * @param figures what the run read, wrote and committed
 * @param lostToWriters a compaction that committed nothing because concurrent writes invalidated
 *     every group it rewrote: it does not count for {@code compact.min-interval}
 */
record JobOutcome(Result result, String detail, RunFigures figures, boolean lostToWriters) {
  enum Result {
    SUCCEEDED,
    FAILED,
    /** Another engine holds the table's lock: skipped, re-queued at the next evaluation. */
    LOCKED,
    /** Stopped by shutdown before its commit. */
    ABANDONED
  }

  JobOutcome {
    requireNonNull(result, "result is null");
    requireNonNull(detail, "detail is null");
    requireNonNull(figures, "figures is null");
  }

  JobOutcome(Result result, String detail, RunFigures figures) {
    this(result, detail, figures, false);
  }
}
