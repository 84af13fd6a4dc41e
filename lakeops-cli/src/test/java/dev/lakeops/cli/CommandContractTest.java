package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * Every CLI command of an operation of the procedure contract takes the contract's arguments under
 * their CLI spelling, with the deprecated aliases as further names of the same option.
 */
class CommandContractTest {
  private static final Map<ArgumentType, List<Class<?>>> TYPES =
      Map.of(
          ArgumentType.TEXT, List.of(String.class, Path.class),
          ArgumentType.BOOLEAN, List.of(boolean.class),
          ArgumentType.INTEGER, List.of(Integer.class, int.class),
          ArgumentType.SIZE, List.of(String.class),
          ArgumentType.CUTOFF, List.of(String.class),
          ArgumentType.TEXT_LIST, List.of(List.class),
          ArgumentType.LONG_LIST, List.of(List.class),
          ArgumentType.TEXT_MAP, List.of(Map.class));

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

  @Test
  void everyContractFlagTakesTheContractsTypeAndDefault() {
    CommandLine lakeops = LakeOpsCommand.commandLine();
    for (Operation operation : Operations.offeredOn(Host.CLI)) {
      CommandLine command = lakeops.getSubcommands().get(operation.commandName());
      for (OperationArgument argument : operation.arguments(Host.CLI)) {
        OptionSpec option = command.getCommandSpec().findOption(argument.cliFlag());
        String what = operation.commandName() + " " + argument.cliFlag();
        assertThat(TYPES.get(argument.type())).as(what).contains(option.type());
        assertThat(option.defaultValue())
            .as(what + " declares no default of its own: the contract holds it")
            .isNull();
        String shown =
            command.getDefaultValueProvider() == null
                ? null
                : defaultValue(command.getDefaultValueProvider(), option);
        assertThat(Optional.ofNullable(shown))
            .as(what + " default")
            .isEqualTo(
                EnumSet.of(ArgumentType.TEXT_LIST, ArgumentType.LONG_LIST, ArgumentType.TEXT_MAP)
                            .contains(argument.type())
                        || argument.type() == ArgumentType.BOOLEAN
                    ? Optional.empty()
                    : ContractDefaults.text(operation, argument.name()));
      }
    }
  }

  @Test
  void contractFlagsAreBuiltFromTheContractNotDeclared() {
    for (Class<?> command : LakeOpsCommand.SUBCOMMANDS) {
      Optional<Operation> operation =
          ContractDefaultValues.operation(command.getAnnotation(Command.class).name());
      if (operation.isEmpty() || operation.get().arguments(Host.CLI).isEmpty()) {
        continue;
      }
      assertThat(ContractCommand.class).as(command.getSimpleName()).isAssignableFrom(command);
      List<String> flags =
          operation.get().arguments(Host.CLI).stream().map(OperationArgument::cliFlag).toList();
      for (Field field : command.getDeclaredFields()) {
        Option declared = field.getAnnotation(Option.class);
        if (declared != null) {
          assertThat(declared.names())
              .as(command.getSimpleName())
              .doesNotContainAnyElementsOf(flags);
        }
      }
    }
  }

  @Test
  void theHelpShowsTheContractsDefaults() {
    CommandLine lakeops = LakeOpsCommand.commandLine();

    assertThat(lakeops.getSubcommands().get("compact").getUsageMessage())
        .contains("Memory budget of the rewrite (default: 256MB)");
    assertThat(lakeops.getSubcommands().get("remove-orphan-files").getUsageMessage())
        .contains("(default: 3d,");
    assertThat(lakeops.getSubcommands().get("rewrite-position-deletes").getUsageMessage())
        .contains("(default: 2)");
    assertThat(lakeops.getSubcommands().get("advise").getUsageMessage())
        .contains("Memory budget of the measured copy's compaction")
        .contains("(default: 256MB).");
    assertThat(lakeops.getSubcommands().get("demo").getUsageMessage())
        .contains("Memory budget (default: 256MB)");
  }

  private static String defaultValue(IDefaultValueProvider provider, OptionSpec option) {
    try {
      return provider.defaultValue(option);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
