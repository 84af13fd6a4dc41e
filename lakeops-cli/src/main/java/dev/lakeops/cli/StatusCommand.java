package dev.lakeops.cli;

import dev.lakeops.control.LakeStatus;
import dev.lakeops.control.TableStatus;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "status",
    description =
        "Every table: health score and its worst part, last run, what is due next and why (or why not).",
    mixinStandardHelpOptions = true)
final class StatusCommand implements Callable<Integer> {
  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description = "Policy file (YAML), as given to serve.")
  Path policy;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    PolicyFile policyFile = policy == null ? PolicyFile.empty() : PolicyFile.load(policy);
    List<TableStatus> statuses;
    List<MemberRow> members;
    Clock clock = Clock.systemUTC();
    try (RunLedger ledger = store.openForReading(catalog)) {
      LakeStatus status =
          new LakeStatus(
              catalog.connect(),
              catalog.settings().name(),
              new PolicyResolver(policyFile),
              ledger,
              clock);
      statuses = status.collect();
      members = status.members();
    }
    Instant now = clock.instant();
    System.out.println(
        json
            ? JsonOutput.write(StatusReports.json(statuses, members, now))
            : StatusReports.human(statuses, members, now));
    return 0;
  }
}
