package dev.lakeops.cli;

import dev.lakeops.control.MaintenanceDaemon;
import dev.lakeops.control.ServeSettings;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.unit.TimeInput;
import dev.lakeops.web.DashboardServer;
import dev.lakeops.web.ServeObservability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "serve",
    description =
        "Keep every table of the catalog healthy: watch them, run what is due within the lake's budget, record every run."
            + " Runs until SIGTERM or SIGINT.",
    mixinStandardHelpOptions = true)
final class ServeCommand implements Callable<Integer> {
  @Mixin CatalogOptions catalog;

  @Mixin StoreOptions store;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description = "Policy file (YAML); default: built-in defaults.")
  Path policy;

  @Option(
      names = "--http",
      paramLabel = "HOST:PORT",
      description =
          "Serve the dashboard, its JSON API, GET /metrics and GET /health on this address (e.g. 127.0.0.1:8080; :8080 binds 127.0.0.1).")
  String http;

  @Option(
      names = "--once",
      description = "Evaluate every table once, run what is due, wait for it, exit.")
  boolean once;

  @Option(names = "--dry-run", description = "Log what would run and why; change nothing.")
  boolean dryRun;

  @Option(
      names = "--shutdown-grace",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description =
          "How long running work may finish after SIGTERM/SIGINT before it is abandoned (default: ${DEFAULT-VALUE}).")
  String shutdownGrace;

  @Option(
      names = "--lock-lease",
      paramLabel = "DURATION",
      defaultValue = "5m",
      description =
          "Lease of the table locks it takes: the longest a killed daemon's lock blocks others (default: ${DEFAULT-VALUE}).")
  String lockLease;

  @Option(
      names = "--member-lease",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description =
          "With a PostgreSQL store shared by several serve processes: a killed process's tables move to the others within this; a process missing five heartbeats in a row (every sixth of it) counts as dead (default: ${DEFAULT-VALUE}).")
  String memberLease;

  @Override
  public Integer call() throws Exception {
    PolicyFile policyFile = policy == null ? PolicyFile.empty() : PolicyFile.load(policy);
    Duration grace = TimeInput.parseDuration(shutdownGrace, "--shutdown-grace");
    Duration lease = TimeInput.parseDuration(lockLease, "--lock-lease");
    Duration membership = TimeInput.parseDuration(memberLease, "--member-lease");
    if (!store.enabled()) {
      throw new IllegalArgumentException(
          "serve needs a store for its ledger: drop --store none or give sqlite:FILE");
    }
    String storeConfiguration = store.configuration(catalog);
    try (RunLedger ledger = store.openForReading(catalog)) {
      ServeSettings settings =
          ServeSettings.of(
                  catalog.connect(),
                  catalog.settings().name(),
                  new PolicyResolver(policyFile),
                  ledger)
              .withOnce(once)
              .withDryRun(dryRun)
              .withShutdownGrace(grace)
              .withLockOptions(
                  LockOptions.defaults()
                      .withLeaseDuration(lease)
                      .withLeaseStore(ledger.storeLocation()))
              .withTelemetryStore(Optional.of(storeConfiguration))
              .withMemberLease(membership);
      AtomicBoolean working = new AtomicBoolean(true);
      try (ServeObservability observability =
          ServeObservability.start(
              storeConfiguration,
              settings.catalog(),
              settings.catalogName(),
              settings.policies(),
              ledger,
              Optional.ofNullable(http).map(DashboardServer::parseAddress),
              working::get,
              settings.clock())) {
        MaintenanceDaemon daemon =
            new MaintenanceDaemon(settings, observability.observer(), observability.advisor());
        try (StopSignals signals =
            StopSignals.onTermOrInterrupt(
                () -> {
                  working.set(false);
                  daemon.stop();
                })) {
          observability
              .url()
              .ifPresent(url -> System.err.println("lakeops serve: dashboard at " + url + "/"));
          daemon.run();
          working.set(false);
        }
      }
    }
    return 0;
  }
}
