package dev.lakeops.cli;

import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunStart;
import dev.lakeops.operation.call.BoundOperation;
import dev.lakeops.operation.call.RunSettings;
import dev.lakeops.runs.MeasuredRun;
import dev.lakeops.runs.RunRecorder;
import dev.lakeops.runs.StoreDefaults;
import dev.lakeops.telemetry.store.StoreLocation;
import java.util.Optional;
import org.apache.iceberg.Table;
import picocli.CommandLine.Option;

/**
 * The {@code --store} option: where the run ledger (and the daemon's state) live. Default: {@code
 * .lakeops/lakeops.db} under {@code --warehouse}, else {@code ~/.lakeops/lakeops.db}; {@code none}
 * records nothing.
 */
final class StoreOptions {
  @Option(
      names = "--store",
      paramLabel = "CONFIG",
      description =
          "Run ledger store: sqlite:<path> or jdbc:postgresql://... (default: sqlite:<warehouse>/.lakeops/lakeops.db"
              + " for --warehouse, else sqlite:~/.lakeops/lakeops.db; 'none' records nothing).")
  String store;

  /** The store configuration in force for this catalog. */
  String configuration(CatalogOptions catalog) {
    return StoreDefaults.configuration(
        Optional.ofNullable(store), Optional.ofNullable(catalog.warehouse));
  }

  /** Whether runs are recorded at all. */
  boolean enabled() {
    return store == null || !StoreDefaults.NONE.equalsIgnoreCase(store.strip());
  }

  /**
   * The ledger a command records its runs in. A store given with {@code --store} must open; the
   * default store that cannot be opened is a warning, and the command runs unrecorded.
   */
  RunLedger openForRecording(CatalogOptions catalog) {
    if (!enabled()) {
      return RunLedger.disabled();
    }
    String configuration = configuration(catalog);
    StoreLocation location = StoreLocation.parse(configuration);
    KeptNativeLibrary.SQLITE.useKeptCopy();
    try {
      return JdbcRunLedger.open(location, java.time.Clock.systemUTC());
    } catch (RuntimeException e) {
      if (store != null) {
        throw new IllegalStateException(e.getMessage() + " — check --store", e);
      }
      System.err.println(
          "lakeops: warning: "
              + LedgerWarnings.oneLine(e)
              + "; the run is not recorded (set --store)");
      return RunLedger.disabled();
    }
  }

  /** The ledger a command reads (runs, status): the store must open. */
  RunLedger openForReading(CatalogOptions catalog) {
    if (!enabled()) {
      throw new IllegalArgumentException(
          "--store none has no runs to read: give a store, e.g. --store sqlite:FILE");
    }
    KeptNativeLibrary.SQLITE.useKeptCopy();
    return JdbcRunLedger.open(
        StoreLocation.parse(configuration(catalog)), java.time.Clock.systemUTC());
  }

  /**
   * Loads {@code table} and runs {@code call} on it, recorded in the run ledger; returns its result
   * with what it cost.
   */
  <T> MeasuredRun<T> recordRun(
      CatalogOptions catalog, String table, boolean dryRun, BoundOperation<T> call) {
    Table loaded = catalog.loadTable(table);
    try (RunLedger ledger = openForRecording(catalog)) {
      return call.run(loaded, RunSettings.recordedBy(recorder(ledger, catalog, loaded, dryRun)));
    }
  }

  /** Records {@code table}'s runs in {@code ledger} as the command line's. */
  static RunRecorder recorder(
      RunLedger ledger, CatalogOptions catalog, Table table, boolean dryRun) {
    String catalogName = catalog.settings().name();
    return new RunRecorder(
        ledger,
        catalogName,
        dev.lakeops.runs.LedgerTableNames.of(table, catalogName),
        RunHost.CLI,
        RunStart.REQUESTED,
        dryRun);
  }
}
