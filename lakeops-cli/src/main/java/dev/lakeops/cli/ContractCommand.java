package dev.lakeops.cli;

import dev.lakeops.operation.Operation;
import java.util.List;

/**
 * A command of an operation of the procedure contract: its contract flags are not declared with
 * {@code @Option} but built from the contract ({@link ContractOptions}) with the command's help.
 */
interface ContractCommand {
  /** The operation the command runs. */
  Operation operation();

  /** How the command's help presents each of the operation's CLI arguments. */
  List<CliFlag> contractFlags();
}
