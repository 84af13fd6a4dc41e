package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunRecord;
import dev.lakeops.maintain.orphan.UncommittedFileRemover;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.rewrite.OutputFileNames;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The files a compaction left behind when its process died before the commit: serve names every
 * output file after the run's ledger id, so they are found by name and removed at the next start
 * (unless the table references them), without waiting for the orphan cleanup's 3-day floor.
 */
final class DeadRunFiles {
  private final Catalog catalog;

  DeadRunFiles(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  /**
   * Removes the unreferenced output files of {@code run}, a run whose process is known to be gone;
   * returns what it did, for the log and the ledger (empty text when there was nothing to do).
   */
  String removeLeftovers(RunRecord run) {
    if (!run.operation().equals(MaintenanceOperation.COMPACT.commandName())
        || run.start().dryRun()) {
      return "";
    }
    String operationId;
    try {
      operationId = OutputFileNames.operationIdOfRun(run.runId());
    } catch (IllegalArgumentException e) {
      return "";
    }
    try {
      UncommittedFileRemover.Removal removal =
          new UncommittedFileRemover()
              .remove(
                  catalog.loadTable(TableIdentifier.parse(run.table())),
                  location -> OutputFileNames.isOutputOf(location, operationId));
      if (removal.matching() == 0) {
        return "";
      }
      return "; removed "
          + removal.deleted()
          + " uncommitted file(s) it wrote"
          + (removal.referenced() > 0 ? ", kept " + removal.referenced() + " committed" : "")
          + (removal.failed() > 0
              ? ", " + removal.failed() + " could not be deleted (the orphan cleanup removes them)"
              : "");
    } catch (NoSuchTableException e) {
      return "";
    } catch (RuntimeException e) {
      return "; its files stay for the orphan cleanup: " + DaemonLog.oneLine(e);
    }
  }
}
