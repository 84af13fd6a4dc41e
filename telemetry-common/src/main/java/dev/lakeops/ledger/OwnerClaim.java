package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A table a member wants to own.
 *
 * @param tableName the table, {@code namespace.table}
 * @param previousOwner the member that owns it now (dead, or handing it over); empty when free
 */
public record OwnerClaim(String tableName, Optional<String> previousOwner) {
  public OwnerClaim {
    requireNonNull(tableName, "tableName is null");
    requireNonNull(previousOwner, "previousOwner is null");
  }
}
