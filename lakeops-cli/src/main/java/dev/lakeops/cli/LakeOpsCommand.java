package dev.lakeops.cli;

import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command. Its subcommands are added by {@link #commandLine(String...)}: only the one a
 * command line names, so that a run does not build picocli's model (by reflection) of all of them.
 */
@Command(
    name = "lakeops",
    description = "Autonomous maintenance for Apache Iceberg tables.",
    mixinStandardHelpOptions = true,
    versionProvider = LakeOpsVersion.class)
final class LakeOpsCommand {
  /** Every subcommand, in the order help lists them. */
  static final List<Class<?>> SUBCOMMANDS =
      List.of(
          DemoCommand.class,
          CompactCommand.class,
          HealthCommand.class,
          AdviseCommand.class,
          ExpireSnapshotsCommand.class,
          RemoveOrphanFilesCommand.class,
          RewriteManifestsCommand.class,
          RewritePositionDeletesCommand.class,
          RemoveDanglingDeletesCommand.class,
          ConvertEqualityDeletesCommand.class,
          MaintainCommand.class,
          RunsCommand.class,
          ServeCommand.class,
          StatusCommand.class,
          ResumeCommand.class,
          PolicyCommand.class,
          ReportCommand.class);

  /**
   * The command line for {@code args}: with the subcommand {@code args[0]} names alone, or with all
   * of them when it names none (help, version, a mistyped name).
   */
  static CommandLine commandLine(String... args) {
    CommandLine commandLine = new CommandLine(new LakeOpsCommand());
    Optional<Class<?>> named =
        args.length == 0
            ? Optional.empty()
            : SUBCOMMANDS.stream()
                .filter(command -> command.getAnnotation(Command.class).name().equals(args[0]))
                .findFirst();
    for (Class<?> command : named.map(List::<Class<?>>of).orElse(SUBCOMMANDS)) {
      commandLine.addSubcommand(command);
    }
    for (CommandLine subcommand : commandLine.getSubcommands().values()) {
      if (subcommand.getCommand() instanceof ContractCommand contract) {
        ContractOptions.addTo(subcommand.getCommandSpec(), contract);
      }
    }
    return commandLine;
  }
}
