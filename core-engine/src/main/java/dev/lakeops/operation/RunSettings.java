package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.GroupExecution;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.runs.RunRecorder;

/**
 * How a host runs an operation: the recorder of its run ledger (which also names the store where
 * table leases are kept), the listener a compaction reports progress to, and where file groups are
 * rewritten.
 *
 * @param recorder records each run in the host's run ledger; a disabled ledger records nothing
 * @param listener receives a compaction's progress (the CLI's progress bar)
 * @param groupExecution where a compaction rewrites its file groups (Spark executors, or here)
 */
public record RunSettings(
    RunRecorder recorder, CompactionListener listener, GroupExecution groupExecution) {
  public RunSettings {
    requireNonNull(recorder, "recorder is null");
    requireNonNull(listener, "listener is null");
    requireNonNull(groupExecution, "groupExecution is null");
  }

  /** Runs recorded by {@code recorder}, with no progress listener, rewriting here. */
  public static RunSettings recordedBy(RunRecorder recorder) {
    return new RunSettings(recorder, CompactionListener.NONE, GroupExecution.LOCAL);
  }

  /** Runs recorded nowhere (a host without a run ledger, or a test). */
  public static RunSettings unrecorded(RunHost host, String catalog, String table) {
    return recordedBy(
        new RunRecorder(RunLedger.disabled(), catalog, table, host, "unrecorded", false));
  }

  public RunSettings withListener(CompactionListener value) {
    return new RunSettings(recorder, value, groupExecution);
  }

  public RunSettings withGroupExecution(GroupExecution value) {
    return new RunSettings(recorder, listener, value);
  }

  /** The table locks, kept in the store the recorder writes to when it has one. */
  LockOptions lockOptions() {
    return LockOptions.defaults().withLeaseStore(recorder.leaseStore());
  }
}
