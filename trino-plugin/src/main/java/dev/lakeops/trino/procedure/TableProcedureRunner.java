package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.runs.RunRecorder;
import dev.lakeops.trino.connector.CatalogBinding;
import dev.lakeops.trino.connector.IcebergTables;
import dev.lakeops.trino.run.ProcedureRun;
import dev.lakeops.trino.run.ProcedureRunHistory;
import dev.lakeops.trino.run.RunLedgers;
import dev.lakeops.trino.run.RunOutcome;
import io.airlift.log.Logger;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.Table;

/**
 * What every procedure does around its core call: check that the caller may read or write the
 * table, parse the other arguments, load the table, run the operation on the coordinator, report
 * failures with a LakeOps error code, and record the run in the {@link ProcedureRunHistory} behind
 * {@code lakeops.system.runs} and, for writing procedures, in the run ledger of {@code
 * lakeops.telemetry.store}.
 *
 * <p>The rule for {@code lakeops.system.runs}: every CALL that names a table and passes access
 * control is listed, succeeded or failed; an argument the procedure refuses (a bad strategy, an
 * unknown option key, a bad size or duration) is a FAILED run with {@code
 * LAKEOPS_INVALID_ARGUMENT}, since the table is the audit trail of what was asked. A CALL that
 * access control denies, or that gives no schema or table name, is not listed.
 */
public final class TableProcedureRunner {
  private static final Logger log = Logger.get(TableProcedureRunner.class);

  private final IcebergTables tables;
  private final ProcedureRunHistory history;
  private final RunLedgers ledgers;
  private final CatalogBinding catalog;

  @Inject
  public TableProcedureRunner(
      IcebergTables tables,
      ProcedureRunHistory history,
      RunLedgers ledgers,
      CatalogBinding catalog) {
    this.tables = requireNonNull(tables, "tables is null");
    this.history = requireNonNull(history, "history is null");
    this.ledgers = requireNonNull(ledgers, "ledgers is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  /**
   * Parses the arguments with {@code arguments} (its {@link IllegalArgumentException} becomes
   * {@code LAKEOPS_INVALID_ARGUMENT}), runs {@code action} on the table with them and returns its
   * result; {@code outcome} turns the result into the figures {@code lakeops.system.runs} shows.
   * {@code action} gets a {@link RunRecorder}: for a writing procedure on the run ledger of {@code
   * lakeops.telemetry.store} (host {@code trino}, reason {@code CALL by <user>}, errors redacted),
   * for a reading one, and without a store, it records nothing.
   */
  public <A, T> T run(
      TableCall call,
      Supplier<A> arguments,
      RecordedAction<A, T> action,
      Function<T, RunOutcome> outcome) {
    requireNonNull(call, "call is null");
    requireNonNull(arguments, "arguments is null");
    requireNonNull(action, "action is null");
    requireNonNull(outcome, "outcome is null");
    ConnectorSession session = call.session();
    String operation = call.operation();
    boolean recorded = call.access() == TableAccess.WRITE;
    SchemaTableName name =
        new SchemaTableName(
            ProcedureErrors.required(call.schemaName(), "schema_name"),
            ProcedureErrors.required(call.tableName(), "table_name"));
    call.access().check(call.accessControl(), name);
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    boolean inLedger = false;
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      A parsed = ProcedureErrors.parseArgument(arguments);
      Table table = tables.load(name);
      T result;
      try (RunLedger ledger = recorded ? ledgers.openForRecording() : RunLedger.disabled()) {
        RunRecorder recorder =
            new RunRecorder(
                    ledger,
                    catalog.trinoCatalogName(),
                    name.getSchemaName() + "." + name.getTableName(),
                    RunHost.TRINO,
                    "CALL by " + session.getUser(),
                    false)
                .withErrorRedaction(tables.redactor()::redact);
        inLedger = recorded && ledgers.configured();
        result = action.apply(table, parsed, recorder);
      }
      RunOutcome reported = outcome.apply(result);
      history.add(
          run(
              session,
              operation,
              name,
              started,
              startNanos,
              Optional.of(reported),
              Optional.empty(),
              inLedger));
      log.info(
          "%s of %s by %s (query %s): %s",
          operation, name, session.getUser(), session.getQueryId(), reported.summary());
      return result;
    } catch (RuntimeException e) {
      TrinoException failure =
          tables.redactor().redact(ProcedureErrors.translate(operation, name, e));
      history.add(
          run(
              session,
              operation,
              name,
              started,
              startNanos,
              Optional.empty(),
              Optional.of(failure.getErrorCode().getName() + ": " + failure.getMessage()),
              inLedger));
      throw failure;
    }
  }

  /** An operation on a loaded table with its parsed arguments, recording its runs. */
  @FunctionalInterface
  public interface RecordedAction<A, T> {
    T apply(Table table, A arguments, RunRecorder recorder);
  }

  private static ProcedureRun run(
      ConnectorSession session,
      String operation,
      SchemaTableName name,
      Instant started,
      long startNanos,
      Optional<RunOutcome> outcome,
      Optional<String> error,
      boolean inLedger) {
    return new ProcedureRun(
        session.getQueryId(),
        session.getUser(),
        operation,
        name,
        started,
        Duration.ofNanos(System.nanoTime() - startNanos),
        outcome,
        error,
        inLedger);
  }
}
