package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.call.BoundOperation;
import dev.lakeops.operation.call.RunSettings;
import java.time.Instant;
import java.util.Iterator;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * What the maintenance procedures share: an operation of the procedure contract, whose name,
 * description and arguments ({@link SparkParameters}, the first always {@code table}) the procedure
 * declares, and a call that reads them through {@link ProcedureArguments}.
 */
abstract class TableProcedure implements UnboundProcedure, BoundProcedure {
  static final String TABLE = SparkParameters.TABLE.name();

  private final String name;
  private final String description;
  private final ProcedureParameter[] parameters;

  TableProcedure(Operation operation) {
    requireNonNull(operation, "operation is null");
    this.name = operation.name();
    this.description = operation.description();
    this.parameters = SparkParameters.of(operation);
  }

  /** Runs the procedure with its arguments; bad input is an {@link IllegalArgumentException}. */
  abstract Iterator<Scan> call(ProcedureArguments arguments);

  /**
   * The contract arguments of {@code operation} the caller gave, with ages counted from now and
   * timestamps read in the session's time zone.
   */
  static OperationArguments contractArguments(ProcedureArguments arguments, Operation operation) {
    return arguments.contract(operation).at(Instant.now(), SessionTableRunner.sessionTimeZone());
  }

  /**
   * Runs {@code call} on the table the procedure names, on the driver, recorded in the session's
   * run ledger; Spark's cached copy of the table is refreshed after a run that {@code
   * changesTable}.
   */
  static <T> T run(ProcedureArguments arguments, BoundOperation<T> call, boolean changesTable) {
    return SessionTableRunner.forActiveSession()
        .run(
            arguments.requiredString(TABLE),
            changesTable,
            call.dryRun(),
            (loaded, recorder) -> call.run(loaded, RunSettings.recordedBy(recorder)).result());
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public final ProcedureParameter[] parameters() {
    return parameters.clone();
  }

  @Override
  public final boolean isDeterministic() {
    return false;
  }

  @Override
  public final Iterator<Scan> call(InternalRow input) {
    return call(new ProcedureArguments(parameters, input));
  }
}
