package dev.lakeops.cli;

import picocli.CommandLine.Command;

@Command(
    name = "lakeops",
    description = "Autonomous maintenance for Apache Iceberg tables.",
    mixinStandardHelpOptions = true,
    version = "lakeops 0.1.0",
    subcommands = {
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
      PolicyCommand.class,
      ReportCommand.class
    })
final class LakeOpsCommand {}
