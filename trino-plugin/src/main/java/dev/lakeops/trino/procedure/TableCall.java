package dev.lakeops.trino.procedure;

import static java.util.Objects.requireNonNull;

import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;

/**
 * Who calls which procedure on which table: what {@link TableProcedureRunner} checks, runs and
 * records. The schema and table names are the caller's and may be NULL (refused when run).
 *
 * @param access the rights the procedure needs; only writing procedures are recorded in the run
 *     ledger
 */
public record TableCall(
    ConnectorSession session,
    ConnectorAccessControl accessControl,
    TableAccess access,
    String operation,
    String schemaName,
    String tableName) {
  public TableCall {
    requireNonNull(session, "session is null");
    requireNonNull(accessControl, "accessControl is null");
    requireNonNull(access, "access is null");
    requireNonNull(operation, "operation is null");
  }
}
