package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every CLI command of an operation of the procedure contract takes the contract's arguments under
 * their CLI spelling, with the deprecated aliases as further names of the same option.
 */
class CommandContractTest {
  @Test
  void everyOperationCommandDeclaresTheContractsFlags() {
    CommandLine lakeops = LakeOpsCommand.commandLine();
    for (Operation operation : Operations.offeredOn(Host.CLI)) {
      CommandLine command = lakeops.getSubcommands().get(operation.commandName());
      assertThat(command).as(operation.commandName()).isNotNull();
      CommandSpec spec = command.getCommandSpec();
      for (OperationArgument argument : operation.arguments(Host.CLI)) {
        OptionSpec option = spec.findOption(argument.cliFlag());
        assertThat(option).as(operation.commandName() + " " + argument.cliFlag()).isNotNull();
        List<String> names = new ArrayList<>(List.of(argument.cliFlag()));
        argument.aliasesOn(Host.CLI).stream().map(ArgumentAlias::name).forEach(names::add);
        assertThat(option.names())
            .as(operation.commandName() + " " + argument.cliFlag())
            .containsExactlyInAnyOrderElementsOf(names);
      }
    }
  }
}
