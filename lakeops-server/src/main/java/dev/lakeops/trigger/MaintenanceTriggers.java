package dev.lakeops.trigger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.health.TableHealthReport;
import dev.lakeops.policy.EffectivePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides from a table's health, its policy and its maintenance history what is due now: pure
 * logic, no I/O. See {@code docs/serve.md}, "How a decision is made".
 */
public final class MaintenanceTriggers {
  /** The operations due now, compaction first. */
  public List<DueOperation> evaluate(
      TableHealthReport health, EffectivePolicy policy, MaintenanceHistory history, Instant now) {
    return decide(health, policy, history, now).due();
  }

  /** The operations due now and those a guard holds back. */
  public TriggerDecision decide(
      TableHealthReport health, EffectivePolicy policy, MaintenanceHistory history, Instant now) {
    requireNonNull(health, "health is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(history, "history is null");
    requireNonNull(now, "now is null");
    List<DueOperation> due = new ArrayList<>();
    List<HeldOperation> held = new ArrayList<>();
    if (policy.enabled()) {
      CompactionTrigger.decide(health, policy, history, now, due, held);
      HousekeepingTriggers.expiry(health, policy, due);
      HousekeepingTriggers.manifests(health, policy, due);
      HousekeepingTriggers.orphans(health, policy, history, now, due, held);
    }
    return new TriggerDecision(due, held);
  }

  /**
   * A table written to recently is evaluated at least this often relative to its last commit's age.
   */
  static final int ACTIVE_TABLE_DIVISOR = 4;

  /**
   * How long to wait before evaluating the table again: {@code poll-interval} while something is
   * due or the score fell since the previous evaluation; double the previous delay (up to {@code
   * max-poll-interval}) while it stays healthy and nothing is due, but never more than a quarter of
   * the time since the table's last commit (a table written to every 40 s is looked at within 10 s
   * of a write, an idle one backs off); otherwise the previous delay.
   */
  public Duration nextEvaluationDelay(
      Optional<TableHealthReport> previous,
      TableHealthReport current,
      Duration previousDelay,
      boolean somethingDue,
      EffectivePolicy policy,
      Instant now) {
    requireNonNull(previous, "previous is null");
    requireNonNull(current, "current is null");
    requireNonNull(previousDelay, "previousDelay is null");
    requireNonNull(policy, "policy is null");
    requireNonNull(now, "now is null");
    Duration floor = policy.pollInterval();
    Duration ceiling = policy.maxPollInterval();
    boolean degraded =
        previous.map(before -> current.score().score() < before.score().score()).orElse(false);
    Duration next;
    if (somethingDue || degraded) {
      next = floor;
    } else if (current.score().healthy()) {
      next = previousDelay.multipliedBy(2);
      if (current.lastCommit().isPresent()) {
        Duration active =
            Duration.between(current.lastCommit().get(), now).dividedBy(ACTIVE_TABLE_DIVISOR);
        next = next.compareTo(active) > 0 ? active : next;
      }
    } else {
      next = previousDelay;
    }
    if (next.compareTo(floor) < 0) {
      return floor;
    }
    return next.compareTo(ceiling) > 0 ? ceiling : next;
  }
}
