package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.GroupExecution;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.runs.RunRecorder;

/**
 * How a host runs an operation: the recorder of its run ledger, the listener a compaction reports
 * progress to, where file groups are rewritten, and how the table's lock is taken.
 *
 * @param recorder records each run in the host's run ledger; a disabled ledger records nothing
 * @param listener receives a compaction's progress (the CLI's progress bar)
 * @param groupExecution where a compaction rewrites its file groups (Spark executors, or here)
 * @param lockOptions how a compaction takes the table's lock; by default with its lease kept in the
 *     store the recorder writes to, where hosts sharing it see each other's leases
 */
public record RunSettings(
    RunRecorder recorder,
    CompactionListener listener,
    GroupExecution groupExecution,
    LockOptions lockOptions) {
  public RunSettings {
    requireNonNull(recorder, "recorder is null");
    requireNonNull(listener, "listener is null");
    requireNonNull(groupExecution, "groupExecution is null");
    requireNonNull(lockOptions, "lockOptions is null");
  }

  /** Runs recorded by {@code recorder}, with no progress listener, rewriting here. */
  public static RunSettings recordedBy(RunRecorder recorder) {
    return new RunSettings(
        recorder,
        CompactionListener.NONE,
        GroupExecution.LOCAL,
        LockOptions.defaults().withLeaseStore(recorder.leaseStore()));
  }

  /** Runs recorded nowhere (a host without a run ledger, or a test). */
  public static RunSettings unrecorded(RunHost host, String catalog, String table) {
    return recordedBy(
        new RunRecorder(RunLedger.disabled(), catalog, table, host, "unrecorded", false));
  }

  public RunSettings withListener(CompactionListener value) {
    return new RunSettings(recorder, value, groupExecution, lockOptions);
  }

  public RunSettings withGroupExecution(GroupExecution value) {
    return new RunSettings(recorder, listener, value, lockOptions);
  }

  public RunSettings withLockOptions(LockOptions value) {
    return new RunSettings(recorder, listener, groupExecution, value);
  }
}
