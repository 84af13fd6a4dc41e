package dev.lakeops.ledger;

import java.util.Locale;

/** Where a run stands. Only {@link #RUNNING} ever changes, once, to one of the others. */
public enum RunStatus {
  /** Started and not finished (or its process died: see {@link #ABANDONED}). */
  RUNNING,
  /** Finished; its changes, if any, are committed. */
  SUCCEEDED,
  /** Ended with an error; nothing of it is committed half-way. */
  FAILED,
  /** Given up: stopped at shutdown before its commit, or its process was killed. */
  ABANDONED;

  /** The label stored in the ledger's {@code status} column, e.g. {@code succeeded}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static RunStatus parse(String label) {
    return valueOf(label.strip().toUpperCase(Locale.ROOT));
  }
}
