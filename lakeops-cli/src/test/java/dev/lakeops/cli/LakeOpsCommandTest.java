package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LakeOpsCommandTest {
  @Test
  void buildsOnlyTheSubcommandTheCommandLineNames() {
    CommandLine commandLine = LakeOpsCommand.commandLine("compact", "db.t", "--warehouse", "w");

    assertThat(commandLine.getSubcommands()).containsOnlyKeys("compact");
  }

  @Test
  void buildsEverySubcommandForHelpAndUnknownNames() {
    assertThat(LakeOpsCommand.commandLine("--help").getSubcommands())
        .hasSize(LakeOpsCommand.SUBCOMMANDS.size())
        .containsKeys("demo", "compact", "health", "runs", "serve", "report");
    assertThat(LakeOpsCommand.commandLine().getSubcommands())
        .hasSize(LakeOpsCommand.SUBCOMMANDS.size());
    assertThat(LakeOpsCommand.commandLine("compcat").getSubcommands())
        .hasSize(LakeOpsCommand.SUBCOMMANDS.size());
  }
}
