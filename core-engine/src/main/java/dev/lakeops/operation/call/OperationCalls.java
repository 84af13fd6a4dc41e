package dev.lakeops.operation.call;

import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * The one entry point every host runs an operation through: it binds the caller's {@link
 * OperationArguments} to the core's request (checking each value once, applying the contract's
 * defaults) and runs it on a table, recorded in the host's run ledger.
 *
 * <pre>{@code
 * OperationArguments arguments =
 *     OperationArguments.on(Host.SPARK).with("strategy", "sort").with("memory_budget", "512MB");
 * BoundOperation<?> bound = OperationCalls.bind(Operations.COMPACT, arguments); // before loading
 * MeasuredRun<?> run = bound.run(table, RunSettings.recordedBy(recorder));
 * }</pre>
 *
 * Hosts that know the operation at compile time use its call directly ({@link CompactCall#bind})
 * for a typed result.
 */
public final class OperationCalls {
  private OperationCalls() {}

  /** {@code operation} bound to {@code arguments}; a bad argument fails here, naming it. */
  public static BoundOperation<?> bind(Operation operation, OperationArguments arguments) {
    return switch (operation.name()) {
      case "compact" -> CompactCall.bind(arguments);
      case "expire_snapshots" -> ExpireSnapshotsCall.bind(arguments);
      case "remove_orphan_files" -> RemoveOrphanFilesCall.bind(arguments);
      case "rewrite_manifests" -> RewriteManifestsCall.bind(arguments);
      case "maintain" -> MaintainCall.bind(arguments);
      case "health" -> HealthCall.bind(arguments);
      case "rewrite_position_deletes" -> RewritePositionDeletesCall.bind(arguments);
      case "remove_dangling_deletes" -> RemoveDanglingDeletesCall.bind(arguments);
      case "convert_equality_deletes" -> ConvertEqualityDeletesCall.bind(arguments);
      default ->
          throw new IllegalArgumentException(
              "Unknown operation '" + operation.name() + "': use one of " + Operations.ALL);
    };
  }

  /** Binds {@code arguments} to {@code operation} and runs it on {@code table}. */
  public static MeasuredRun<?> run(
      Operation operation, OperationArguments arguments, Table table, RunSettings settings) {
    return bind(operation, arguments).run(table, settings);
  }
}
