package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.policy.PolicyResolver;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;

/**
 * Everything a {@link MaintenanceDaemon} runs with.
 *
 * @param catalog the catalog whose tables it maintains
 * @param catalogName the catalog's name in the ledger
 * @param policies the policy file's resolver
 * @param ledger where runs are recorded and history is read
 * @param once evaluate every table once, run what is due, then stop
 * @param dryRun log what would run and why; change nothing
 * @param shutdownGrace how long running work may finish after a stop request
 * @param lockOptions the table lock's lease and clock (the wait is always zero)
 * @param discoveryInterval how often the catalog is listed for new and dropped tables
 * @param telemetryStore the store {@code compact.strategy: auto} reads
 * @param memberLease how long after its last heartbeat a member of the daemons sharing the store
 *     counts as alive (its tables move to the others after it)
 * @param log where the log lines go (standard error)
 * @param clock the time source of decisions
 */
public record ServeSettings(
    Catalog catalog,
    String catalogName,
    PolicyResolver policies,
    RunLedger ledger,
    boolean once,
    boolean dryRun,
    Duration shutdownGrace,
    LockOptions lockOptions,
    Duration discoveryInterval,
    Optional<String> telemetryStore,
    Duration memberLease,
    PrintStream log,
    Clock clock) {
  public static final Duration SHUTDOWN_GRACE_DEFAULT = Duration.ofSeconds(60);
  public static final Duration DISCOVERY_INTERVAL_DEFAULT = Duration.ofSeconds(30);

  public ServeSettings {
    requireNonNull(catalog, "catalog is null");
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(policies, "policies is null");
    requireNonNull(ledger, "ledger is null");
    requireNonNull(shutdownGrace, "shutdownGrace is null");
    requireNonNull(lockOptions, "lockOptions is null");
    requireNonNull(discoveryInterval, "discoveryInterval is null");
    requireNonNull(telemetryStore, "telemetryStore is null");
    requireNonNull(memberLease, "memberLease is null");
    requireNonNull(log, "log is null");
    requireNonNull(clock, "clock is null");
  }

  /** Settings with the defaults: runs until stopped, real changes, 60 s grace, standard error. */
  public static ServeSettings of(
      Catalog catalog, String catalogName, PolicyResolver policies, RunLedger ledger) {
    return new Builder(catalog, catalogName, policies, ledger).build();
  }

  public ServeSettings withOnce(boolean value) {
    Builder builder = toBuilder();
    builder.once = value;
    return builder.build();
  }

  public ServeSettings withDryRun(boolean value) {
    Builder builder = toBuilder();
    builder.dryRun = value;
    return builder.build();
  }

  public ServeSettings withShutdownGrace(Duration value) {
    Builder builder = toBuilder();
    builder.shutdownGrace = value;
    return builder.build();
  }

  public ServeSettings withLockOptions(LockOptions value) {
    Builder builder = toBuilder();
    builder.lockOptions = value;
    return builder.build();
  }

  public ServeSettings withDiscoveryInterval(Duration value) {
    Builder builder = toBuilder();
    builder.discoveryInterval = value;
    return builder.build();
  }

  public ServeSettings withTelemetryStore(Optional<String> value) {
    Builder builder = toBuilder();
    builder.telemetryStore = value;
    return builder.build();
  }

  public ServeSettings withMemberLease(Duration value) {
    Builder builder = toBuilder();
    builder.memberLease = value;
    return builder.build();
  }

  public ServeSettings withLog(PrintStream value) {
    Builder builder = toBuilder();
    builder.log = value;
    return builder.build();
  }

  private Builder toBuilder() {
    Builder builder = new Builder(catalog, catalogName, policies, ledger);
    builder.once = once;
    builder.dryRun = dryRun;
    builder.shutdownGrace = shutdownGrace;
    builder.lockOptions = lockOptions;
    builder.discoveryInterval = discoveryInterval;
    builder.telemetryStore = telemetryStore;
    builder.memberLease = memberLease;
    builder.log = log;
    builder.clock = clock;
    return builder;
  }

  /** The settings one {@code with*} call changes, starting from the defaults; used once. */
  private static final class Builder {
    private final Catalog catalog;
    private final String catalogName;
    private final PolicyResolver policies;
    private final RunLedger ledger;
    private boolean once;
    private boolean dryRun;
    private Duration shutdownGrace = SHUTDOWN_GRACE_DEFAULT;
    private LockOptions lockOptions = LockOptions.defaults();
    private Duration discoveryInterval = DISCOVERY_INTERVAL_DEFAULT;
    private Optional<String> telemetryStore = Optional.empty();
    private Duration memberLease = dev.lakeops.members.LakeMembership.LEASE_DEFAULT;
    private PrintStream log = System.err;
    private Clock clock = Clock.systemUTC();

    private Builder(
        Catalog catalog, String catalogName, PolicyResolver policies, RunLedger ledger) {
      this.catalog = catalog;
      this.catalogName = catalogName;
      this.policies = policies;
      this.ledger = ledger;
    }

    private ServeSettings build() {
      return new ServeSettings(
          catalog,
          catalogName,
          policies,
          ledger,
          once,
          dryRun,
          shutdownGrace,
          lockOptions,
          discoveryInterval,
          telemetryStore,
          memberLease,
          log,
          clock);
    }
  }
}
