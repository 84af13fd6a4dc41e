package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;

/**
 * The same table, read and written through another {@link FileIO}: its metadata, specs, schema and
 * locations are the table's own, read from the table's operations. Meant for the rewrite's reads
 * and writes of data files; commits go through the table itself.
 */
public final class TableWithFileIO {
  private TableWithFileIO() {}

  /** {@code table} with {@code io}; empty when the table does not expose its operations. */
  public static Optional<Table> of(Table table, FileIO io) {
    requireNonNull(table, "table is null");
    requireNonNull(io, "io is null");
    if (!(table instanceof HasTableOperations withOperations)) {
      return Optional.empty();
    }
    return Optional.of(
        new BaseTable(new Operations(withOperations.operations(), io), table.name()));
  }

  /** The table's operations with another FileIO. */
  private static final class Operations implements TableOperations {
    private final TableOperations delegate;
    private final FileIO io;

    Operations(TableOperations delegate, FileIO io) {
      this.delegate = delegate;
      this.io = io;
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
      return io;
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

    @Override
    public boolean requireStrictCleanup() {
      return delegate.requireStrictCleanup();
    }
  }
}
