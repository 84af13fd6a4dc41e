package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
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

  @Test
  void versionNamesLakeOpsAndTheIcebergParquetAndArrowItCarries() {
    StringWriter out = new StringWriter();
    CommandLine commandLine = LakeOpsCommand.commandLine("--version");
    commandLine.setOut(new PrintWriter(out));

    int exitCode = commandLine.execute("--version");

    assertThat(exitCode).isZero();
    assertThat(out.toString().lines())
        .hasSize(5)
        .satisfiesExactly(
            lakeops -> assertThat(lakeops).matches("lakeops \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"),
            iceberg ->
                assertThat(iceberg).isEqualTo("iceberg " + System.getProperty("iceberg.version")),
            parquet ->
                assertThat(parquet).isEqualTo("parquet " + System.getProperty("parquet.version")),
            arrow -> assertThat(arrow).isEqualTo("arrow " + System.getProperty("arrow.version")),
            java -> assertThat(java).startsWith("java " + Runtime.version().feature()));
  }
}
