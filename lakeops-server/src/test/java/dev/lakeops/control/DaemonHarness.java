package dev.lakeops.control;

import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.testing.Conditions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.commons.io.output.TeeOutputStream;
import org.apache.iceberg.catalog.Catalog;

/** Runs a {@link MaintenanceDaemon} in a thread of the test, capturing its log. */
public final class DaemonHarness implements AutoCloseable {
  public final RunLedger ledger;
  private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
  private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
  private MaintenanceDaemon daemon;
  private Thread thread;

  public DaemonHarness(Path store) {
    this.ledger = JdbcRunLedger.open(StoreLocation.sqliteFile(store), Clock.systemUTC());
  }

  public ServeSettings settings(Catalog catalog, String policyYaml) {
    return ServeSettings.of(
            catalog,
            "lakeops",
            new PolicyResolver(PolicyFile.parse(policyYaml, "policy.yaml")),
            ledger)
        .withDiscoveryInterval(Duration.ofSeconds(1))
        .withLog(
            new PrintStream(new TeeOutputStream(log, System.err), true, StandardCharsets.UTF_8));
  }

  public void start(ServeSettings settings) {
    daemon = new MaintenanceDaemon(settings);
    thread = new Thread(daemon::run, "serve-under-test");
    thread.start();
  }

  /** Runs the daemon to its end on this thread (for --once). */
  public void runToEnd(ServeSettings settings) {
    daemon = new MaintenanceDaemon(settings);
    daemon.run();
  }

  public void stop(Duration timeout) throws InterruptedException {
    daemon.stop();
    thread.join(timeout.toMillis());
    if (thread.isAlive()) {
      throw new AssertionError("serve did not stop within " + timeout);
    }
  }

  public String log() {
    return logBytes.toString(StandardCharsets.UTF_8);
  }

  public List<RunRecord> runs(String table) {
    return ledger.list(RunQuery.all().withTable(table));
  }

  public List<RunRecord> succeeded(String table, String operation) {
    return runs(table).stream()
        .filter(run -> run.operation().equals(operation) && run.status() == RunStatus.SUCCEEDED)
        .toList();
  }

  public static void await(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    Conditions.await(what, timeout, condition);
  }

  @Override
  public void close() throws InterruptedException {
    if (thread != null && thread.isAlive()) {
      stop(Duration.ofSeconds(60));
    }
    ledger.close();
  }
}
