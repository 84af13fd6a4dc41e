package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * A real table's operations, passed through unchanged: the base of hand-written fakes that change
 * only what they override (usually {@link #commit}).
 */
public abstract class ForwardingTableOperations implements TableOperations {
  private final TableOperations delegate;

  protected ForwardingTableOperations(TableOperations delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  protected final TableOperations delegate() {
    return delegate;
  }

  @Override
  public TableMetadata current() {
    return delegate.current();
  }

  @Override
  public TableMetadata refresh() {
    return delegate.refresh();
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    delegate.commit(base, metadata);
  }

  @Override
  public FileIO io() {
    return delegate.io();
  }

  @Override
  public EncryptionManager encryption() {
    return delegate.encryption();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    return delegate.metadataFileLocation(fileName);
  }

  @Override
  public LocationProvider locationProvider() {
    return delegate.locationProvider();
  }

  @Override
  public long newSnapshotId() {
    return delegate.newSnapshotId();
  }
}
