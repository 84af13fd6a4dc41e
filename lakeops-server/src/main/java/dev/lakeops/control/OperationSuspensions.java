package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.JdbcSuspensionTable;
import dev.lakeops.ledger.SuspensionRow;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The failure policy: failures in a row of each operation on each table, counted in the store
 * (shared by every daemon on it) and cached here. Enough failures in a row ({@code
 * failures.suspend-after}) suspend the operation on the table until the table changes (a new
 * snapshot, a new policy) or {@code lakeops resume} clears it. Without a store, counts live in
 * memory only. Owned by the daemon's scheduling thread.
 */
final class OperationSuspensions implements AutoCloseable {
  /**
   * How often the store is read again (to see {@code lakeops resume} and other daemons' counts).
   */
  static final Duration READ_INTERVAL = Duration.ofSeconds(2);

  private final String catalogName;
  private final Optional<JdbcSuspensionTable> store;
  private Map<String, SuspensionRow> rows = new LinkedHashMap<>();
  private Instant nextRead = Instant.MIN;

  OperationSuspensions(String catalogName, Optional<JdbcSuspensionTable> store) {
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.store = requireNonNull(store, "store is null");
  }

  /** The counts of {@code settings}' store, or in memory when it has none. */
  static OperationSuspensions of(ServeSettings settings) {
    return new OperationSuspensions(
        settings.catalogName(), settings.ledger().storeLocation().map(JdbcSuspensionTable::open));
  }

  /**
   * Reads the store again when it is time.
   *
   * @return the tables whose suspension someone else lifted since the last read
   */
  Set<String> refresh(Instant now) {
    if (store.isEmpty() || now.isBefore(nextRead)) {
      return Set.of();
    }
    nextRead = now.plus(READ_INTERVAL);
    Map<String, SuspensionRow> read = new LinkedHashMap<>();
    for (SuspensionRow row : store.get().list(catalogName)) {
      read.put(key(row.tableName(), row.operation()), row);
    }
    Set<String> lifted = new HashSet<>();
    rows.forEach(
        (key, row) -> {
          SuspensionRow current = read.get(key);
          if (row.suspended() && (current == null || !current.suspended())) {
            lifted.add(row.tableName());
          }
        });
    rows = read;
    return lifted;
  }

  /** The operations suspended now. */
  List<SuspensionRow> suspended() {
    return rows.values().stream().filter(SuspensionRow::suspended).toList();
  }

  /** {@code operation}'s suspension on {@code table}, if it is suspended. */
  Optional<SuspensionRow> suspension(String table, String operation) {
    return Optional.ofNullable(rows.get(key(table, operation))).filter(SuspensionRow::suspended);
  }

  /**
   * Whether {@code suspension} no longer holds because the table has another snapshot or policy
   * now; the suspension is then lifted.
   */
  boolean liftIfChanged(SuspensionRow suspension, OptionalLong snapshotId, String policy) {
    boolean changed =
        !suspension.snapshotId().equals(snapshotId)
            || !suspension.policyFingerprint().map(policy::equals).orElse(false);
    if (changed) {
      clear(suspension.tableName(), suspension.operation());
    }
    return changed;
  }

  /**
   * Counts a failure of {@code operation} on {@code table}.
   *
   * @return the suspension when this failure was the one that suspended it
   */
  Optional<SuspensionRow> failed(
      String table,
      String operation,
      String error,
      int suspendAfter,
      OptionalLong snapshotId,
      String policy,
      Instant now) {
    String key = key(table, operation);
    SuspensionRow before = rows.get(key);
    int failures =
        store.isPresent()
            ? store.get().recordFailure(catalogName, table, operation, error)
            : (before == null ? 0 : before.failures()) + 1;
    boolean suspends = failures >= suspendAfter && (before == null || !before.suspended());
    if (suspends) {
      store.ifPresent(
          suspensions ->
              suspensions.suspend(catalogName, table, operation, now, snapshotId, policy));
    }
    SuspensionRow row =
        new SuspensionRow(
            catalogName,
            table,
            operation,
            failures,
            error,
            suspends || (before != null && before.suspended())
                ? Optional.of(suspends ? now : before.suspendedAt().orElseThrow())
                : Optional.empty(),
            suspends ? snapshotId : OptionalLong.empty(),
            suspends ? Optional.of(policy) : Optional.empty());
    rows.put(key, row);
    return suspends ? Optional.of(row) : Optional.empty();
  }

  /** {@code operation} succeeded on {@code table}: its failures in a row are over. */
  void succeeded(String table, String operation) {
    clear(table, operation);
  }

  private void clear(String table, String operation) {
    if (rows.remove(key(table, operation)) != null || store.isPresent()) {
      store.ifPresent(suspensions -> suspensions.clear(catalogName, table, operation));
    }
  }

  @Override
  public void close() {
    store.ifPresent(JdbcSuspensionTable::close);
  }

  private static String key(String table, String operation) {
    return table + '\u0000' + operation;
  }
}
