package dev.lakeops.control;

import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunQuery;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.RunStatus;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.trigger.MaintenanceHistory;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's {@link MaintenanceHistory} from the run ledger: when each operation last finished (by
 * any host, dry runs and lock skips not counted) and whether its last orphan cleanup failed.
 */
final class LedgerHistory {
  /** Ledger rows read per table: enough to find the last of each operation. */
  static final int ROWS_PER_TABLE = 200;

  private LedgerHistory() {}

  static MaintenanceHistory read(RunLedger ledger, String catalogName, String table) {
    return of(
        ledger.list(
            RunQuery.all().withCatalog(catalogName).withTable(table).withLimit(ROWS_PER_TABLE)));
  }

  /** {@code runs} newest first, as the ledger lists them. */
  static MaintenanceHistory of(List<RunRecord> runs) {
    Map<MaintenanceOperation, java.time.Instant> lastFinished =
        new EnumMap<>(MaintenanceOperation.class);
    Boolean lastOrphanFailed = null;
    for (RunRecord run : runs) {
      if (run.start().dryRun()
          || run.finished().isEmpty()
          || (run.status() != RunStatus.SUCCEEDED && run.status() != RunStatus.FAILED)) {
        continue;
      }
      Optional<MaintenanceOperation> operation =
          MaintenanceOperation.ofCommandName(run.operation());
      if (operation.isEmpty()) {
        continue;
      }
      lastFinished.putIfAbsent(operation.get(), run.finished().get());
      if (operation.get() == MaintenanceOperation.REMOVE_ORPHAN_FILES && lastOrphanFailed == null) {
        lastOrphanFailed = run.status() == RunStatus.FAILED;
      }
    }
    return new MaintenanceHistory(lastFinished, Boolean.TRUE.equals(lastOrphanFailed));
  }
}
