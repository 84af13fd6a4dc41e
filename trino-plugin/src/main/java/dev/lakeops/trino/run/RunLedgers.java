package dev.lakeops.trino.run;

import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.ledger.JdbcRunLedger;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.runs.HostRunLedger;
import dev.lakeops.trino.connector.LakeOpsConfig;
import java.util.Optional;

/**
 * The run ledger of {@code lakeops.telemetry.store} in the catalog file: procedures record their
 * runs in it (a store that cannot be opened is a warning, and the CALL goes on), and {@code
 * lakeops.system.runs} reads it. Each use opens the store and closes it again.
 */
public final class RunLedgers {
  public static final String STORE_PROPERTY = "lakeops.telemetry.store";

  private final Optional<String> store;

  @Inject
  public RunLedgers(LakeOpsConfig config) {
    this(requireNonNull(config, "config is null").getTelemetryStore());
  }

  public RunLedgers(Optional<String> store) {
    this.store = requireNonNull(store, "store is null");
  }

  /** Whether a store is configured. */
  public boolean configured() {
    return store.isPresent();
  }

  /**
   * The ledger procedures record in; records nothing without a store or when it cannot be opened.
   */
  public RunLedger openForRecording() {
    return HostRunLedger.open(store, STORE_PROPERTY);
  }

  /** The ledger {@code lakeops.system.runs} reads; the store must be configured and must open. */
  public RunLedger openForReading() {
    return JdbcRunLedger.open(
        store.orElseThrow(() -> new IllegalStateException(STORE_PROPERTY + " is not set")));
  }
}
