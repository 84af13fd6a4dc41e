package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the run ledger knows about a table's past maintenance. Compactions by any engine also show
 * in the table's snapshot history, which the health report reads ({@code lastRewrite}, {@code
 * convergence}); expiries and orphan cleanups leave no snapshot, so only the ledger knows them.
 *
 * @param lastFinished when each operation last finished (successfully or not)
 * @param lastOrphanRunFailed whether the table's last orphan cleanup failed (it is then retried at
 *     the next evaluation, regardless of {@code orphans.interval})
 */
public record MaintenanceHistory(
    Map<MaintenanceOperation, Instant> lastFinished, boolean lastOrphanRunFailed) {
  public MaintenanceHistory {
    Map<MaintenanceOperation, Instant> copy = new EnumMap<>(MaintenanceOperation.class);
    copy.putAll(requireNonNull(lastFinished, "lastFinished is null"));
    lastFinished = Collections.unmodifiableMap(copy);
  }

  /** A table nothing was ever run on. */
  public static MaintenanceHistory none() {
    return new MaintenanceHistory(Map.of(), false);
  }

  public Optional<Instant> lastFinished(MaintenanceOperation operation) {
    return Optional.ofNullable(lastFinished.get(operation));
  }

  /** This history with {@code operation} finished at {@code when}. */
  public MaintenanceHistory withFinished(
      MaintenanceOperation operation, Instant when, boolean failed) {
    Map<MaintenanceOperation, Instant> updated = new EnumMap<>(MaintenanceOperation.class);
    updated.putAll(lastFinished);
    updated.put(operation, when);
    return new MaintenanceHistory(
        updated,
        operation == MaintenanceOperation.REMOVE_ORPHAN_FILES ? failed : lastOrphanRunFailed);
  }
}
