package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One row of the run ledger.
 *
 * @param runId a random UUID
 * @param start the catalog, table, operation, reason, host and dry-run flag the run started with
 * @param process {@code pid@machine} of the process that ran it
 * @param started when it started
 * @param finished when it ended; empty while it runs
 * @param status where it stands
 * @param error the one-line error of a failed or abandoned run
 * @param figures what it read, wrote and committed (all 0 until it finishes)
 */
public record RunRecord(
    String runId,
    RunStart start,
    String process,
    Instant started,
    Optional<Instant> finished,
    RunStatus status,
    Optional<String> error,
    RunFigures figures) {
  public RunRecord {
    requireNonNull(runId, "runId is null");
    requireNonNull(start, "start is null");
    requireNonNull(process, "process is null");
    requireNonNull(started, "started is null");
    requireNonNull(finished, "finished is null");
    requireNonNull(status, "status is null");
    requireNonNull(error, "error is null");
    requireNonNull(figures, "figures is null");
  }

  public String table() {
    return start.table();
  }

  public String operation() {
    return start.operation();
  }

  /** Wall time of a finished run; empty while it runs. */
  public Optional<Duration> elapsed() {
    return finished.map(end -> Duration.between(started, end));
  }
}
