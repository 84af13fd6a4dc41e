package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import java.time.Instant;
import java.util.Optional;

/**
 * An operation whose trigger fired but a guard holds back, for {@code status}.
 *
 * @param operation what would run
 * @param reason the trigger and the guard, e.g. {@code compact.min-interval 10m: last compaction 3m
 *     ago}
 * @param notBefore when the guard lets it run, if known
 */
public record HeldOperation(
    MaintenanceOperation operation, String reason, Optional<Instant> notBefore) {
  public HeldOperation {
    requireNonNull(operation, "operation is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(notBefore, "notBefore is null");
  }
}
