package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunCost;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One maintenance run as the dashboard, the metrics and the learning planner see it.
 *
 * @param runId the ledger's id of the run
 * @param table the table's name
 * @param operation {@code compact}, {@code expire-snapshots}, ...
 * @param reason why it ran
 * @param host who started it: {@code serve}, {@code cli}, {@code spark}, {@code trino}, {@code
 *     flink}
 * @param started when it started
 * @param finished when it ended; empty while it runs
 * @param status {@code running}, {@code succeeded}, {@code failed}, {@code abandoned}, ...
 * @param error the one-line error of a failed run
 * @param inputFiles files read
 * @param outputFiles files written
 * @param inputBytes bytes read (rewritten)
 * @param outputBytes bytes written
 * @param peakMemoryBytes the run's peak memory
 * @param commitConflicts file groups a concurrent change conflicted with (retried, re-based or
 *     dropped)
 * @param snapshotId the snapshot the run committed
 * @param cost object storage requests and bytes, requests in flight and CPU time of the run
 * @param verifiedRows rows of a compaction's committed groups, each of which passed verification
 * @param verificationFailures a compaction's file groups that failed verification
 */
public record RunSummary(
    String runId,
    String table,
    String operation,
    String reason,
    String host,
    Instant started,
    Optional<Instant> finished,
    String status,
    Optional<String> error,
    long inputFiles,
    long outputFiles,
    long inputBytes,
    long outputBytes,
    long peakMemoryBytes,
    long commitConflicts,
    OptionalLong snapshotId,
    RunCost cost,
    long verifiedRows,
    long verificationFailures) {
  public RunSummary {
    requireNonNull(runId, "runId is null");
    requireNonNull(table, "table is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(host, "host is null");
    requireNonNull(started, "started is null");
    requireNonNull(finished, "finished is null");
    requireNonNull(status, "status is null");
    requireNonNull(error, "error is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(cost, "cost is null");
  }

  /** A run that verified nothing. */
  public RunSummary(
      String runId,
      String table,
      String operation,
      String reason,
      String host,
      Instant started,
      Optional<Instant> finished,
      String status,
      Optional<String> error,
      long inputFiles,
      long outputFiles,
      long inputBytes,
      long outputBytes,
      long peakMemoryBytes,
      long commitConflicts,
      OptionalLong snapshotId,
      RunCost cost) {
    this(
        runId,
        table,
        operation,
        reason,
        host,
        started,
        finished,
        status,
        error,
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        peakMemoryBytes,
        commitConflicts,
        snapshotId,
        cost,
        0,
        0);
  }

  /** A run whose cost was not measured. */
  public RunSummary(
      String runId,
      String table,
      String operation,
      String reason,
      String host,
      Instant started,
      Optional<Instant> finished,
      String status,
      Optional<String> error,
      long inputFiles,
      long outputFiles,
      long inputBytes,
      long outputBytes,
      long peakMemoryBytes,
      long commitConflicts,
      OptionalLong snapshotId) {
    this(
        runId,
        table,
        operation,
        reason,
        host,
        started,
        finished,
        status,
        error,
        inputFiles,
        outputFiles,
        inputBytes,
        outputBytes,
        peakMemoryBytes,
        commitConflicts,
        snapshotId,
        RunCost.NONE);
  }

  /** How long the run took, or has taken so far when {@code now} is given for a running run. */
  public Optional<Duration> duration() {
    return finished.map(end -> Duration.between(started, end));
  }
}
