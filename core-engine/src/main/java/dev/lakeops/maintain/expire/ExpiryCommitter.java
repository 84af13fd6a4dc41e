package dev.lakeops.maintain.expire;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.files.TableOperationsAccess;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Commits the metadata change through Iceberg's {@code ExpireSnapshots} with its own file cleanup
 * off, and returns the metadata after the commit. When the commit state is unknown nothing may be
 * deleted: the caller gets an exception and deletes nothing.
 */
final class ExpiryCommitter {
  private final Table table;

  ExpiryCommitter(Table table) {
    this.table = requireNonNull(table, "table is null");
  }

  TableMetadata commit(SnapshotExpiryOptions options) {
    try {
      ExpiryPlanner.configure(table.expireSnapshots(), options).commit();
    } catch (CommitStateUnknownException e) {
      throw new IllegalStateException(
          "The expiry of "
              + table.name()
              + " may or may not have been committed; no file was deleted. "
              + "Run expire-snapshots again to finish the cleanup",
          e);
    }
    table.refresh();
    return TableOperationsAccess.refresh(table);
  }
}
