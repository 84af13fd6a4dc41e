package dev.lakeops.runs;

import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunLedger;
import java.util.Optional;

/**
 * The run ledger of an engine's procedure or hook (Spark, Trino, Flink): the store the engine's
 * telemetry setting names, or no ledger when none is set. A store that cannot be opened is one
 * warning and the run goes on unrecorded: recording never fails the engine's operation.
 */
public final class HostRunLedger {
  private HostRunLedger() {}

  /** Opens the ledger of {@code store} ({@code sqlite:FILE} or {@code jdbc:postgresql://...}). */
  public static RunLedger open(Optional<String> store, String setting) {
    if (store.isEmpty()
        || store.get().isBlank()
        || StoreDefaults.NONE.equalsIgnoreCase(store.get().strip())) {
      return RunLedger.disabled();
    }
    try {
      return JdbcRunLedger.open(store.get().strip());
    } catch (RuntimeException e) {
      LedgerWarnings.warn(
          LedgerWarnings.oneLine(e)
              + "; the run is not recorded in the run ledger (check "
              + setting
              + ")");
      return RunLedger.disabled();
    }
  }
}
