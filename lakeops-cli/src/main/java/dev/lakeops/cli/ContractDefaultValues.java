package dev.lakeops.cli;

import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The defaults of the commands' contract flags ({@code --memory-budget 256MB}, {@code --strategy
 * binpack}), read from {@link ContractDefaults} rather than declared in each {@code @Option}: the
 * help's {@code ${DEFAULT-VALUE}} shows them, and a flag left out is parsed from them as if typed.
 * Lists, maps and flags have no default here; their binders apply it. Commands beyond the contract
 * that compact ({@code advise}, {@code demo}) take compact's memory budget default too.
 */
final class ContractDefaultValues implements IDefaultValueProvider {
  /** {@code --memory-budget} and its deprecated {@code --memory}. */
  private static final List<String> MEMORY_BUDGET_FLAGS = memoryBudgetFlags();

  private static final Set<ArgumentType> SINGLE_VALUES =
      EnumSet.of(ArgumentType.TEXT, ArgumentType.INTEGER, ArgumentType.SIZE, ArgumentType.CUTOFF);

  @Override
  public String defaultValue(ArgSpec argument) {
    if (!(argument instanceof OptionSpec option) || option.command() == null) {
      return null;
    }
    Optional<Operation> operation = operation(option.command().name());
    if (operation.isPresent()) {
      return defaultOf(operation.get(), option).orElse(null);
    }
    // commands beyond the contract that compact (advise's measured copy, demo) budget as compact
    return MEMORY_BUDGET_FLAGS.stream().anyMatch(Arrays.asList(option.names())::contains)
        ? ContractDefaults.text(Operations.COMPACT, Operations.MEMORY_BUDGET).orElseThrow()
        : null;
  }

  /** The operation whose CLI command is {@code commandName}. */
  static Optional<Operation> operation(String commandName) {
    return Operations.ALL.stream()
        .filter(operation -> operation.commandName().equals(commandName))
        .findFirst();
  }

  private static Optional<String> defaultOf(Operation operation, OptionSpec option) {
    return operation.arguments().stream()
        .filter(argument -> SINGLE_VALUES.contains(argument.type()))
        .filter(argument -> Arrays.asList(option.names()).contains(argument.cliFlag()))
        .findFirst()
        .map(OperationArgument::name)
        .flatMap(name -> ContractDefaults.text(operation, name));
  }

  private static List<String> memoryBudgetFlags() {
    OperationArgument memoryBudget = Operations.COMPACT.argument(Operations.MEMORY_BUDGET);
    List<String> flags = new ArrayList<>(List.of(memoryBudget.cliFlag()));
    memoryBudget.aliasesOn(Host.CLI).forEach(alias -> flags.add(alias.name()));
    return List.copyOf(flags);
  }
}
