package dev.lakeops.trino.run;

import static java.util.Objects.requireNonNull;

import io.trino.spi.connector.SchemaTableName;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One procedure run on this coordinator, a row of {@code lakeops.system.runs}.
 *
 * @param queryId the Trino query that ran the CALL
 * @param user who ran it
 * @param procedure e.g. {@code compact}
 * @param table the table it ran on
 * @param started when the run started
 * @param elapsed how long it took
 * @param outcome what it reported, empty when it failed
 * @param error the failure, {@code ERROR_CODE: message}, empty when it succeeded
 * @param inLedger whether the run ledger of {@code lakeops.telemetry.store} holds the run (a
 *     writing procedure that got as far as running; not {@code health}, nor a CALL refused before)
 */
public record ProcedureRun(
    String queryId,
    String user,
    String procedure,
    SchemaTableName table,
    Instant started,
    Duration elapsed,
    Optional<RunOutcome> outcome,
    Optional<String> error,
    boolean inLedger) {
  public ProcedureRun {
    requireNonNull(queryId, "queryId is null");
    requireNonNull(user, "user is null");
    requireNonNull(procedure, "procedure is null");
    requireNonNull(table, "table is null");
    requireNonNull(started, "started is null");
    requireNonNull(elapsed, "elapsed is null");
    requireNonNull(outcome, "outcome is null");
    requireNonNull(error, "error is null");
    if (outcome.isPresent() == error.isPresent()) {
      throw new IllegalArgumentException("A run has either an outcome or an error");
    }
  }

  public boolean succeeded() {
    return outcome.isPresent();
  }
}
