package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.TableHealthReport;
import dev.lakeops.health.TableHealthTracker;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyResolver;
import dev.lakeops.trigger.MaintenanceHistory;
import dev.lakeops.trigger.MaintenanceTriggers;
import dev.lakeops.trigger.TriggerDecision;
import java.time.Instant;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One look at a table: its health (incremental, through its tracker), its effective policy and what
 * the triggers decide.
 *
 * @param report the health report
 * @param policy the effective policy (table properties as of this look)
 * @param decision what is due and what a guard holds back
 */
public record TableEvaluation(
    TableHealthReport report, EffectivePolicy policy, TriggerDecision decision) {
  public TableEvaluation {
    requireNonNull(report, "report is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(decision, "decision is null");
  }

  /** Refreshes {@code table}, evaluates it with {@code tracker} and decides. */
  public static TableEvaluation of(
      TableIdentifier identifier,
      Table table,
      TableHealthTracker tracker,
      PolicyResolver policies,
      MaintenanceHistory history,
      Instant now) {
    table.refresh();
    return ofCurrent(identifier, table, tracker, policies, history, now);
  }

  /** Evaluates the state {@code table} holds now (just loaded, say), without refreshing it. */
  public static TableEvaluation ofCurrent(
      TableIdentifier identifier,
      Table table,
      TableHealthTracker tracker,
      PolicyResolver policies,
      MaintenanceHistory history,
      Instant now) {
    EffectivePolicy policy = policies.resolve(identifier, table.properties());
    TableHealthReport report = tracker.evaluateCurrent(table, policy.healthCriteria());
    TriggerDecision decision = new MaintenanceTriggers().decide(report, policy, history, now);
    return new TableEvaluation(report, policy, decision);
  }
}
