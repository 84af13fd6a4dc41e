package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Writes and removes a lease in a table's properties with one compare-and-set metadata commit:
 * {@code TableOperations.commit(base, updated)} fails when the table changed since {@code base} was
 * read, so of two compactors that both saw the lock free only one commits. Unlike {@code
 * Table.updateProperties()}, which re-applies its change to fresh metadata on conflict, nothing
 * here is retried blindly: a caller that loses re-reads the lease and decides again.
 */
final class LeaseCommitter {
  private final Table table;
  private final TableOperations operations;

  LeaseCommitter(Table table) {
    this.table = requireNonNull(table, "table is null");
    if (!(table instanceof HasTableOperations withOperations)) {
      throw new IllegalArgumentException(
          "Cannot lock table "
              + table.name()
              + ": "
              + table.getClass().getSimpleName()
              + " is read-only; load the table from its catalog to compact it");
    }
    this.operations = withOperations.operations();
  }

  String tableName() {
    return table.name();
  }

  /** The table's current metadata, read afresh from the catalog. */
  TableMetadata refresh() {
    return operations.refresh();
  }

  /**
   * Replaces the lease in {@code base} with {@code lease}, or removes it when empty.
   *
   * @return true when this commit won; false when the table changed since {@code base}
   */
  boolean compareAndSet(TableMetadata base, Optional<TableLease> lease) {
    Map<String, String> properties = new HashMap<>(base.properties());
    properties.remove(TableLease.OWNER_PROPERTY);
    properties.remove(TableLease.EXPIRES_AT_PROPERTY);
    lease.ifPresent(
        value -> {
          properties.put(TableLease.OWNER_PROPERTY, value.owner());
          properties.put(TableLease.EXPIRES_AT_PROPERTY, value.expiresAt().toString());
        });
    try {
      operations.commit(base, base.replaceProperties(properties));
      return true;
    } catch (CommitFailedException e) {
      return false;
    } catch (CommitStateUnknownException e) {
      // The caller re-reads the properties and sees whether the lease landed.
      return false;
    }
  }

  Optional<TableLease> currentLease() {
    return TableLease.from(refresh().properties());
  }
}
