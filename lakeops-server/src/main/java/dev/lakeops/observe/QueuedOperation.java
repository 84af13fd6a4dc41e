package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Work the daemon has decided to do and not started yet.
 *
 * @param table the table's name
 * @param operation the operation that is due
 * @param reason why it is due, e.g. {@code day=2026-12-01: 41 small files >= 12}
 * @param benefitPerCost the queue's ordering key (higher runs first)
 * @param predictedDuration how long the planner expects it to take, when it has a prediction
 * @param predictedMemoryBytes how much memory the planner expects it to need
 */
public record QueuedOperation(
    String table,
    String operation,
    String reason,
    double benefitPerCost,
    Optional<Duration> predictedDuration,
    OptionalLong predictedMemoryBytes) {
  public QueuedOperation {
    requireNonNull(table, "table is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(reason, "reason is null");
    requireNonNull(predictedDuration, "predictedDuration is null");
    requireNonNull(predictedMemoryBytes, "predictedMemoryBytes is null");
  }
}
