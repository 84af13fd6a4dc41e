package dev.lakeops.cli;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.OperationArguments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The picocli options of a command's contract arguments, built from the procedure contract: the
 * flag and its deprecated aliases, the value's type and its default ({@link ContractDefaultValues})
 * come from {@link dev.lakeops.operation.Operations}, the help from the command's {@link CliFlag}s.
 */
final class ContractOptions {
  private ContractOptions() {}

  /** Adds the options of {@code command}'s contract arguments to {@code spec}. */
  static void addTo(CommandSpec spec, ContractCommand command) {
    for (OperationArgument argument : command.operation().arguments(Host.CLI)) {
      CliFlag flag =
          command.contractFlags().stream()
              .filter(candidate -> candidate.flag().equals(argument.cliFlag()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          spec.name() + " has no help for " + argument.cliFlag()));
      spec.addOption(option(argument, flag));
    }
  }

  /** The contract arguments the command line gave {@code spec}'s command, by contract name. */
  static OperationArguments given(CommandSpec spec, Operation operation) {
    OperationArguments given = OperationArguments.on(Host.CLI);
    for (OperationArgument argument : operation.arguments(Host.CLI)) {
      given = given.with(argument.name(), spec.findOption(argument.cliFlag()).getValue());
    }
    return given;
  }

  private static OptionSpec option(OperationArgument argument, CliFlag flag) {
    List<String> names = new ArrayList<>(List.of(argument.cliFlag()));
    argument.aliasesOn(Host.CLI).stream().map(ArgumentAlias::name).forEach(names::add);
    OptionSpec.Builder option =
        OptionSpec.builder(names.toArray(String[]::new)).description(flag.description());
    flag.paramLabel().ifPresent(option::paramLabel);
    flag.split().ifPresent(option::splitRegex);
    return switch (argument.type()) {
      case BOOLEAN -> option.type(boolean.class).arity("0").build();
      case INTEGER -> option.type(Integer.class).build();
      case TEXT, SIZE, CUTOFF -> option.type(String.class).build();
      case TEXT_LIST -> option.type(List.class).auxiliaryTypes(String.class).build();
      case LONG_LIST -> option.type(List.class).auxiliaryTypes(Long.class).build();
      case TEXT_MAP -> option.type(Map.class).auxiliaryTypes(String.class, String.class).build();
    };
  }
}
