package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.trigger.DueOperation;
import java.time.Instant;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One due operation waiting for, or holding, its share of the lake's budget.
 *
 * @param table the table
 * @param operation what is due and why
 * @param policy the table's policy at decision time
 * @param queuedAt when it was queued (older jobs gain priority, so none waits forever)
 */
record MaintenanceJob(
    TableIdentifier table, DueOperation operation, EffectivePolicy policy, Instant queuedAt) {
  MaintenanceJob {
    requireNonNull(table, "table is null");
    requireNonNull(operation, "operation is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(queuedAt, "queuedAt is null");
  }

  /**
   * Benefit per byte to rewrite, doubled for every {@code agingStep} the job has waited: a hot
   * table's cheap jobs cannot hold back another table's expensive one forever.
   */
  double priority(Instant now, java.time.Duration agingStep) {
    double waitedSteps =
        Math.max(0, java.time.Duration.between(queuedAt, now).toMillis())
            / (double) agingStep.toMillis();
    return operation.benefitPerCost() * Math.pow(2, Math.min(waitedSteps, 60));
  }
}
