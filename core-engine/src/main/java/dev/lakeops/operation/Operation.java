package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One maintenance operation as every engine offers it: its name and its arguments in order. The
 * table is not an argument here: Spark takes {@code table => 'cat.db.t'}, Trino {@code schema_name}
 * and {@code table_name}, the CLI a positional {@code db.t}, Flink the sink's table loader.
 *
 * @param identity which operation this is: its procedure name ({@code expire_snapshots}) and CLI
 *     command name ({@code expire-snapshots})
 * @param description one line on what it does
 * @param hosts where it is offered
 * @param arguments its arguments, in the order the procedures declare them
 */
public record Operation(
    MaintenanceOperation identity,
    String description,
    Set<Host> hosts,
    List<OperationArgument> arguments) {
  public Operation {
    requireNonNull(identity, "identity is null");
    requireNonNull(description, "description is null");
    hosts = Set.copyOf(requireNonNull(hosts, "hosts is null"));
    arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
    Set<String> names = new HashSet<>();
    for (OperationArgument argument : arguments) {
      if (!names.add(argument.name())) {
        throw new IllegalArgumentException(
            identity.procedureName() + " declares " + argument.name() + " twice");
      }
    }
  }

  static Operation of(
      MaintenanceOperation identity, String description, OperationArgument... arguments) {
    return new Operation(identity, description, EnumSet.allOf(Host.class), List.of(arguments));
  }

  /** This operation, offered only on the given hosts. */
  Operation onlyOn(Host first, Host... more) {
    return new Operation(identity, description, EnumSet.of(first, more), arguments);
  }

  /** The procedure name ({@code expire_snapshots}), as Spark and Trino register it. */
  public String name() {
    return identity.procedureName();
  }

  public boolean offeredOn(Host host) {
    return hosts.contains(host);
  }

  /** The arguments {@code host} offers, in order. */
  public List<OperationArgument> arguments(Host host) {
    return arguments.stream().filter(argument -> argument.offeredOn(host)).toList();
  }

  /** The argument of that contract name; a programming error when there is none. */
  public OperationArgument argument(String argumentName) {
    return arguments.stream()
        .filter(argument -> argument.name().equals(argumentName))
        .findFirst()
        .orElseThrow(
            () -> new IllegalStateException(name() + " has no argument named " + argumentName));
  }

  /** The CLI's command name ({@code expire-snapshots}), also the name the run ledger stores. */
  public String commandName() {
    return identity.commandName();
  }
}
