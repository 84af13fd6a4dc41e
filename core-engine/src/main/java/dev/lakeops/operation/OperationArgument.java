package dev.lakeops.operation;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One argument of an operation, as every engine offers it.
 *
 * @param name the contract name, {@code snake_case}, as Spark and Trino take it ({@code
 *     memory_budget}); the CLI spells it {@code --memory-budget}, Flink {@code memoryBudget}
 * @param type the kind of value
 * @param defaultValue what applies when the argument is left out, as a user would read it
 * @param description one line on what it does
 * @param hosts where the argument is offered
 * @param cliFlag the CLI's flag; {@link Host#spell} of the name unless a repeatable flag takes the
 *     singular ({@code --option KEY=VALUE})
 * @param aliases deprecated spellings that still work
 */
public record OperationArgument(
    String name,
    ArgumentType type,
    Optional<String> defaultValue,
    String description,
    Set<Host> hosts,
    String cliFlag,
    List<ArgumentAlias> aliases) {
  public OperationArgument {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(defaultValue, "defaultValue is null");
    requireNonNull(description, "description is null");
    hosts = Set.copyOf(requireNonNull(hosts, "hosts is null"));
    requireNonNull(cliFlag, "cliFlag is null");
    aliases = List.copyOf(requireNonNull(aliases, "aliases is null"));
  }

  /** An argument every host offers, spelled by the contract. */
  public static OperationArgument of(
      String name, ArgumentType type, String defaultValue, String description) {
    return new OperationArgument(
        name,
        type,
        Optional.ofNullable(defaultValue),
        description,
        EnumSet.allOf(Host.class),
        Host.CLI.spell(name),
        List.of());
  }

  /** This argument, offered only on {@code offeredOn}. */
  public OperationArgument onlyOn(Host first, Host... more) {
    return new OperationArgument(
        name, type, defaultValue, description, EnumSet.of(first, more), cliFlag, aliases);
  }

  /** This argument, with the CLI flag {@code flag} (a repeatable flag takes the singular). */
  public OperationArgument withCliFlag(String flag) {
    return new OperationArgument(name, type, defaultValue, description, hosts, flag, aliases);
  }

  /**
   * This argument, also accepted as {@code alias} on {@code host}, with a value of {@code kind}.
   */
  public OperationArgument withAlias(Host host, String alias, ArgumentType kind) {
    List<ArgumentAlias> all = new ArrayList<>(aliases);
    all.add(new ArgumentAlias(host, alias, kind));
    return new OperationArgument(name, type, defaultValue, description, hosts, cliFlag, all);
  }

  public boolean offeredOn(Host host) {
    return hosts.contains(host);
  }

  /** The deprecated spellings {@code host} accepts. */
  public List<ArgumentAlias> aliasesOn(Host host) {
    return aliases.stream().filter(alias -> alias.host() == host).toList();
  }

  /** How {@code host} spells this argument. */
  public String spelling(Host host) {
    return host == Host.CLI ? cliFlag : host.spell(name);
  }
}
