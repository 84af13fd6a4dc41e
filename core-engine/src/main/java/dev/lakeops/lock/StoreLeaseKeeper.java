package dev.lakeops.lock;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.JdbcLeaseTable;
import dev.lakeops.ledger.LeaseRow;
import dev.lakeops.telemetry.store.StoreLocation;
import java.time.Instant;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * Keeps the lease as a row of the run store ({@link JdbcLeaseTable}), keyed by the table's
 * location, which every engine sees alike: taking, renewing and releasing never commit to the
 * table. A host that shares no store still keeps its lease in the table properties, so a taker here
 * also respects a live lease it finds there (it reads them; it never writes them).
 */
final class StoreLeaseKeeper implements LeaseKeeper {
  private final Table table;
  private final JdbcLeaseTable leases;
  private final String tableKey;

  private StoreLeaseKeeper(Table table, JdbcLeaseTable leases) {
    this.table = requireNonNull(table, "table is null");
    this.leases = requireNonNull(leases, "leases is null");
    this.tableKey = tableKey(table);
  }

  /** Opens the lease table of {@code store} for {@code table}. */
  static StoreLeaseKeeper open(Table table, StoreLocation store) {
    return new StoreLeaseKeeper(table, JdbcLeaseTable.open(store));
  }

  /** The key of {@code table}'s lease: its location, without a trailing slash. */
  static String tableKey(Table table) {
    String location = table.location();
    while (location.endsWith("/")) {
      location = location.substring(0, location.length() - 1);
    }
    return location;
  }

  @Override
  public String tableName() {
    return table.name();
  }

  @Override
  public Optional<TableLease> current() {
    Optional<TableLease> stored = leases.holder(tableKey).map(StoreLeaseKeeper::lease);
    return stored.isPresent() ? stored : propertyLease();
  }

  @Override
  public Optional<TableLease> take(TableLease wanted, Instant now) {
    Optional<TableLease> inProperties = propertyLease();
    if (inProperties.isPresent()
        && !inProperties.get().isExpiredAt(now)
        && !inProperties.get().owner().equals(wanted.owner())) {
      return inProperties;
    }
    leases.take(tableKey, wanted.owner(), wanted.expiresAt(), now);
    return leases.holder(tableKey).map(StoreLeaseKeeper::lease);
  }

  @Override
  public Renewal renew(TableLease extended) {
    return leases.renew(tableKey, extended.owner(), extended.expiresAt())
        ? Renewal.RENEWED
        : Renewal.LOST;
  }

  @Override
  public Release release(String owner) {
    return leases.release(tableKey, owner) ? Release.RELEASED : Release.NOT_HELD;
  }

  @Override
  public void close() {
    leases.close();
  }

  /** A lease a host without a store keeps in the table's properties, read afresh. */
  private Optional<TableLease> propertyLease() {
    table.refresh();
    return TableLease.from(table.properties());
  }

  private static TableLease lease(LeaseRow row) {
    return new TableLease(row.owner(), row.expiresAt());
  }
}
