package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.Transaction;

/**
 * Keeps the lease in the table properties {@value TableLease#OWNER_PROPERTY} and {@value
 * TableLease#EXPIRES_AT_PROPERTY}: each take, renewal and release is one compare-and-set metadata
 * commit. For hosts that share no run store; every engine reads the same catalog.
 */
final class PropertyLeaseKeeper implements LeaseKeeper {
  private final LeaseCommitter committer;

  PropertyLeaseKeeper(LeaseCommitter committer) {
    this.committer = requireNonNull(committer, "committer is null");
  }

  @Override
  public String tableName() {
    return committer.tableName();
  }

  @Override
  public Optional<TableLease> current() {
    return committer.currentLease();
  }

  @Override
  public Optional<TableLease> take(TableLease wanted, Instant now) {
    TableMetadata base = committer.refresh();
    Optional<TableLease> current = TableLease.from(base.properties());
    if (current.isPresent() && !current.get().isExpiredAt(now)) {
      return current;
    }
    committer.compareAndSet(base, Optional.of(wanted));
    // Read back rather than trust the commit: a catalog may accept a property update without
    // checking the base (the REST protocol has no requirement for properties).
    return committer.currentLease();
  }

  @Override
  public Renewal renew(TableLease extended) {
    TableMetadata base = committer.refresh();
    Optional<TableLease> current = TableLease.from(base.properties());
    if (current.isEmpty() || !current.get().owner().equals(extended.owner())) {
      return Renewal.LOST;
    }
    return committer.compareAndSet(base, Optional.of(extended)) ? Renewal.RENEWED : Renewal.CHANGED;
  }

  @Override
  public Release release(String owner) {
    TableMetadata base = committer.refresh();
    Optional<TableLease> current = TableLease.from(base.properties());
    if (current.isEmpty() || !current.get().owner().equals(owner)) {
      return Release.NOT_HELD;
    }
    return committer.compareAndSet(base, Optional.empty()) ? Release.RELEASED : Release.CHANGED;
  }

  @Override
  public boolean keepsLeaseInTable() {
    return true;
  }

  @Override
  public boolean stageRelease(Transaction transaction, String owner) {
    Optional<TableLease> current = TableLease.from(transaction.table().properties());
    if (current.isEmpty() || !current.get().owner().equals(owner)) {
      return false;
    }
    transaction
        .updateProperties()
        .remove(TableLease.OWNER_PROPERTY)
        .remove(TableLease.EXPIRES_AT_PROPERTY)
        .commit();
    return true;
  }

  @Override
  public void close() {}
}
