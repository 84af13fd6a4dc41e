package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Optional;

/**
 * The identity of every maintenance operation: the one list the procedure contract ({@link
 * Operations}), the run ledger, the serve triggers and {@code maintain}'s steps refer to.
 *
 * <p>Both names are a contract: the procedure name is what Spark and Trino call, the command name
 * is the CLI's command and the name the run ledger stores (rows written by every earlier version
 * carry it), the status JSON and the dashboard show.
 */
public enum MaintenanceOperation {
  COMPACT("compact", "compact"),
  EXPIRE_SNAPSHOTS("expire_snapshots", "expire-snapshots"),
  REMOVE_ORPHAN_FILES("remove_orphan_files", "remove-orphan-files"),
  REWRITE_MANIFESTS("rewrite_manifests", "rewrite-manifests"),
  MAINTAIN("maintain", "maintain"),
  HEALTH("health", "health"),
  /** Compaction of position delete files alone (data files untouched). */
  REWRITE_POSITION_DELETES("rewrite_position_deletes", "rewrite-position-deletes"),
  REMOVE_DANGLING_DELETES("remove_dangling_deletes", "remove-dangling-deletes"),
  CONVERT_EQUALITY_DELETES("convert_equality_deletes", "convert-equality-deletes");

  private final String procedureName;
  private final String commandName;

  MaintenanceOperation(String procedureName, String commandName) {
    this.procedureName = requireNonNull(procedureName, "procedureName is null");
    this.commandName = requireNonNull(commandName, "commandName is null");
  }

  /** The SQL procedure's name ({@code expire_snapshots}), as Spark and Trino register it. */
  public String procedureName() {
    return procedureName;
  }

  /**
   * The CLI's command name ({@code expire-snapshots}): also the operation the run ledger stores and
   * the status and dashboard show.
   */
  public String commandName() {
    return commandName;
  }

  /** Whether the operation rewrites table files (counted in {@code max-bytes-per-hour}). */
  public boolean rewritesFiles() {
    return this == COMPACT || this == REWRITE_POSITION_DELETES;
  }

  /** The operation a ledger row or CLI command names; empty for a name no operation has. */
  public static Optional<MaintenanceOperation> ofCommandName(String name) {
    return Arrays.stream(values())
        .filter(operation -> operation.commandName.equals(name))
        .findFirst();
  }

  /** The operation a procedure names; empty for a name no operation has. */
  public static Optional<MaintenanceOperation> ofProcedureName(String name) {
    return Arrays.stream(values())
        .filter(operation -> operation.procedureName.equals(name))
        .findFirst();
  }
}
