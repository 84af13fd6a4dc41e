package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.ProcessIdentity;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.ledger.SuspensionRow;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.unit.TimeInput;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.Snapshot;

/**
 * What the daemon does about failures: counts each failure of an operation on a table ({@link
 * OperationSuspensions}), suspends the operation after {@code failures.suspend-after} in a row,
 * holds it back while the table stays as it was, lifts it when the table changes or someone resumes
 * it, and abandons runs stuck past {@code failures.run-deadline}. Owned by the daemon's scheduling
 * thread.
 */
final class FailurePolicy implements AutoCloseable {
  private final ServeSettings settings;
  private final OperationSuspensions suspensions;
  private final DaemonLog log;
  private final LakeObserver observer;

  FailurePolicy(ServeSettings settings, DaemonLog log, LakeObserver observer) {
    this.settings = requireNonNull(settings, "settings is null");
    this.log = requireNonNull(log, "log is null");
    this.observer = requireNonNull(observer, "observer is null");
    this.suspensions = OperationSuspensions.of(settings);
  }

  /** Reads the failure counts again when it is time; a table someone resumed is evaluated now. */
  void refresh(Instant now, Collection<TableWatch> watches) {
    Set<String> lifted;
    try {
      lifted = suspensions.refresh(now);
    } catch (RuntimeException e) {
      log.note("cannot read the suspended operations: " + DaemonLog.oneLine(e));
      return;
    }
    for (TableWatch watch : watches) {
      if (lifted.contains(watch.identifier.toString())) {
        log.table(watch.identifier.toString(), "resumed: its failures were cleared");
        watch.nextEvaluation = now;
      }
    }
    observer.suspensionsChanged(suspensions.suspended());
  }

  /**
   * Whether {@code operation} is suspended on the watched table; a suspension whose table changed
   * since (a new snapshot or policy) is lifted, and the operation runs.
   */
  boolean holds(TableWatch watch, DueOperation operation, TableEvaluation evaluation) {
    String name = OperationRunner.operationName(operation);
    Optional<SuspensionRow> suspension = suspensions.suspension(watch.identifier.toString(), name);
    if (suspension.isEmpty()) {
      return false;
    }
    try {
      if (suspensions.liftIfChanged(
          suspension.get(), currentSnapshot(watch), evaluation.policy().fingerprint())) {
        log.table(
            watch.identifier.toString(),
            name + " resumed: the table changed (a new snapshot or policy) since it was suspended");
        observer.suspensionsChanged(suspensions.suspended());
        return false;
      }
    } catch (RuntimeException e) {
      log.note("cannot resume " + watch.identifier + " " + name + ": " + DaemonLog.oneLine(e));
    }
    return true;
  }

  /** The log line of a suspended operation, as {@link #holds} found it. */
  String heldLine(String table, String operation) {
    SuspensionRow suspension = suspensions.suspension(table, operation).orElseThrow();
    return operation
        + " held: suspended after "
        + suspension.failures()
        + " failures in a row (last: "
        + suspension.lastError()
        + "); resumes when the table changes or with: lakeops resume "
        + table;
  }

  /** {@code job} succeeded: its operation's failures in a row are over. */
  void succeeded(MaintenanceJob job) {
    try {
      suspensions.succeeded(job.table().toString(), OperationRunner.operationName(job.operation()));
    } catch (RuntimeException e) {
      log.note("cannot clear the failures of " + job.table() + ": " + DaemonLog.oneLine(e));
    }
  }

  /** Counts a failure of {@code job}'s operation; enough in a row suspend it. */
  void failed(MaintenanceJob job, TableWatch watch, String error, Instant now) {
    String table = job.table().toString();
    String operation = OperationRunner.operationName(job.operation());
    try {
      suspensions
          .failed(
              table,
              operation,
              error,
              job.policy().suspendAfterFailures(),
              refreshedSnapshot(watch),
              job.policy().fingerprint(),
              now)
          .ifPresent(
              suspension -> {
                log.table(
                    table,
                    operation
                        + " suspended after "
                        + suspension.failures()
                        + " failures in a row (last: "
                        + suspension.lastError()
                        + "); it resumes when the table changes or with: lakeops resume "
                        + table);
                observer.suspensionsChanged(suspensions.suspended());
              });
    } catch (RuntimeException e) {
      log.note(
          "cannot count the failure of " + table + " " + operation + ": " + DaemonLog.oneLine(e));
    }
  }

  /** What the ledger and the log say of a run abandoned past {@code deadline}. */
  static String stuckReason(Duration deadline) {
    return "stuck past its deadline of "
        + TimeInput.format(deadline)
        + " (failures.run-deadline): abandoned, to be tried again";
  }

  /**
   * {@code job} ran past its deadline and its worker is to be interrupted: its run is marked
   * abandoned in the ledger with {@code reason} and counted as a failure, and the table is
   * evaluated again now, so that the operation is tried again.
   */
  void abandonedStuck(MaintenanceJob job, Optional<TableWatch> watch, String reason, Instant now) {
    String table = job.table().toString();
    String operation = OperationRunner.operationName(job.operation());
    abandonRunningRun(table, operation, reason);
    log.table(table, operation + " " + reason);
    watch.ifPresent(
        watched -> {
          failed(job, watched, reason, now);
          watched.nextEvaluation = now;
        });
  }

  private void abandonRunningRun(String table, String operation, String reason) {
    try {
      for (RunRecord run :
          settings
              .ledger()
              .list(
                  RunQuery.all()
                      .withCatalog(settings.catalogName())
                      .withTable(table)
                      .withStatus(RunStatus.RUNNING))) {
        if (run.operation().equals(operation) && run.process().equals(ProcessIdentity.current())) {
          settings.ledger().abandon(run.runId(), reason);
        }
      }
    } catch (RuntimeException e) {
      log.note("cannot mark the stuck run of " + table + " abandoned: " + DaemonLog.oneLine(e));
    }
  }

  /** The watched table's current snapshot as last read; empty when it has none. */
  private static OptionalLong currentSnapshot(TableWatch watch) {
    Snapshot current = watch.table == null ? null : watch.table.currentSnapshot();
    return current == null ? OptionalLong.empty() : OptionalLong.of(current.snapshotId());
  }

  /** The table's current snapshot, read afresh; empty when it has none or cannot be read. */
  private OptionalLong refreshedSnapshot(TableWatch watch) {
    try {
      if (watch.table == null) {
        watch.table = settings.catalog().loadTable(watch.identifier);
      } else {
        watch.table.refresh();
      }
      return currentSnapshot(watch);
    } catch (RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  @Override
  public void close() {
    suspensions.close();
  }
}
