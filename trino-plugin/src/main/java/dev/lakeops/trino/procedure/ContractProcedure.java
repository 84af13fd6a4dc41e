package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.procedure.ProcedureArguments.SYSTEM_SCHEMA;
import static java.util.Objects.requireNonNull;

import com.google.inject.Provider;
import dev.lakeops.operation.Operation;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure;
import io.trino.spi.type.TypeManager;

/**
 * A procedure of the procedure contract: {@code lakeops.system.<operation>} with {@code
 * schema_name}, {@code table_name} and the operation's arguments ({@link ProcedureArguments#of}),
 * bound to the subclass's public method {@code methodName}, whose parameters follow them in order.
 */
abstract class ContractProcedure implements Provider<Procedure> {
  private final Operation operation;
  private final String methodName;
  private final TypeManager typeManager;

  ContractProcedure(Operation operation, String methodName, TypeManager typeManager) {
    this.operation = requireNonNull(operation, "operation is null");
    this.methodName = requireNonNull(methodName, "methodName is null");
    this.typeManager = requireNonNull(typeManager, "typeManager is null");
  }

  @Override
  public final Procedure get() {
    return new Procedure(
        SYSTEM_SCHEMA,
        operation.name(),
        ProcedureArguments.of(operation, typeManager),
        ProcedureArguments.handle(this, methodName));
  }

  /** This operation called by the session's user on {@code schemaName.tableName}. */
  final TableCall call(
      ConnectorSession session,
      ConnectorAccessControl accessControl,
      TableAccess access,
      String schemaName,
      String tableName) {
    return new TableCall(session, accessControl, access, operation.name(), schemaName, tableName);
  }
}
