package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Failures in a row of one operation on one table, and whether they suspended it.
 *
 * @param catalogName the table's catalog
 * @param tableName the table, {@code namespace.table}
 * @param operation the operation as the ledger names it, e.g. {@code compact}
 * @param failures failures in a row since its last success (or resume)
 * @param lastError the last failure's error, one line
 * @param suspendedAt when the failures suspended the operation; empty while it is not suspended
 * @param snapshotId the table's current snapshot when it was suspended
 * @param policyFingerprint the table's policy when it was suspended
 */
public record SuspensionRow(
    String catalogName,
    String tableName,
    String operation,
    int failures,
    String lastError,
    Optional<Instant> suspendedAt,
    OptionalLong snapshotId,
    Optional<String> policyFingerprint) {
  public SuspensionRow {
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(tableName, "tableName is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(lastError, "lastError is null");
    requireNonNull(suspendedAt, "suspendedAt is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(policyFingerprint, "policyFingerprint is null");
  }

  public boolean suspended() {
    return suspendedAt.isPresent();
  }
}
