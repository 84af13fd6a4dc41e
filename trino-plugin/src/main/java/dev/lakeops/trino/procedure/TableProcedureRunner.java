package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.trino.connector.IcebergTables;
import dev.lakeops.trino.run.ProcedureRun;
import dev.lakeops.trino.run.ProcedureRunHistory;
import dev.lakeops.trino.run.RunOutcome;
import io.airlift.log.Logger;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.SchemaTableName;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.Table;

/**
 * What every procedure does around its core call: check that the caller may read or write the
 * table, load it, run the operation on the coordinator, report failures with a LakeOps error code,
 * and record the run, succeeded or failed, in the {@link ProcedureRunHistory} behind {@code
 * lakeops.system.runs}.
 */
public final class TableProcedureRunner {
  private static final Logger log = Logger.get(TableProcedureRunner.class);

  private final IcebergTables tables;
  private final ProcedureRunHistory history;

  @Inject
  public TableProcedureRunner(IcebergTables tables, ProcedureRunHistory history) {
    this.tables = requireNonNull(tables, "tables is null");
    this.history = requireNonNull(history, "history is null");
  }

  /**
   * Runs {@code action} on the table and returns its result; {@code outcome} turns the result
   * into the figures {@code lakeops.system.runs} shows.
   */
  public <T> T run(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      TableAccess access,
      String operation,
      String schemaName,
      String tableName,
      Function<Table, T> action,
      Function<T, RunOutcome> outcome) {
    SchemaTableName name =
        new SchemaTableName(
            ProcedureErrors.required(schemaName, "schema_name"), ProcedureErrors.required(tableName, "table_name"));
    access.check(accessControl, name);
    Instant started = Instant.now();
    long startNanos = System.nanoTime();
    try (ThreadContextClassLoader ignored = new ThreadContextClassLoader(getClass().getClassLoader())) {
      Table table = tables.load(name);
      T result = action.apply(table);
      RunOutcome reported = outcome.apply(result);
      history.add(run(session, operation, name, started, startNanos, Optional.of(reported), Optional.empty()));
      log.info("%s of %s by %s (query %s): %s", operation, name, session.getUser(), session.getQueryId(), reported.summary());
      return result;
    } catch (RuntimeException e) {
      TrinoException failure = ProcedureErrors.translate(operation, name, e);
      history.add(
          run(session, operation, name, started, startNanos, Optional.empty(),
              Optional.of(failure.getErrorCode().getName() + ": " + failure.getMessage())));
      throw failure;
    }
  }

  private static ProcedureRun run(
      ConnectorSession session,
      String operation,
      SchemaTableName name,
      Instant started,
      long startNanos,
      Optional<RunOutcome> outcome,
      Optional<String> error) {
    return new ProcedureRun(
        session.getQueryId(), session.getUser(), operation, name, started,
        Duration.ofNanos(System.nanoTime() - startNanos), outcome, error);
  }
}
