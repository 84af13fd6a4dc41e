package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.observe.RunSummaries;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.ByteSize;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The daemon's advisor: plans with a {@link LearningPlanner} over the store's history and records
 * each plan and outcome in the {@link RunPlanStore}. A table's plan is kept until its next run
 * ends, so the scheduler may ask as often as it likes at the cost of one history read.
 */
public final class LearnedCompactions implements CompactionAdvisor {
  private record Cached(long inputBytes, long ceilingBytes, PinnedValues pinned, RunPlan plan) {}

  private final LearningPlanner planner;
  private final RunPlanStore store;
  private final Map<String, Cached> plans = new ConcurrentHashMap<>();

  public LearnedCompactions(RunPlanStore store, PlannerDefaults defaults) {
    this.store = requireNonNull(store, "store is null");
    this.planner = new LearningPlanner(store, defaults);
  }

  @Override
  public Optional<RunPlan> plan(
      String table, EffectivePolicy policy, long inputBytes, ByteSize ceiling) {
    PinnedValues pinned = PinnedValues.of(policy);
    Cached cached = plans.get(table);
    if (cached == null
        || cached.inputBytes() != inputBytes
        || cached.ceilingBytes() != ceiling.bytes()
        || !cached.pinned().equals(pinned)) {
      cached =
          new Cached(
              inputBytes,
              ceiling.bytes(),
              pinned,
              planner.plan(table, policy.compactStrategy(), inputBytes, ceiling, pinned));
      plans.put(table, cached);
    }
    return Optional.of(cached.plan());
  }

  @Override
  public void started(String runId, String table, RunPlan plan) {
    store.started(runId, table, plan);
  }

  @Override
  public void finished(String runId, String table, RunPlan plan, CompactionResult result) {
    plans.remove(table);
    long conflicted = RunSummaries.commitConflicts(result);
    store.finished(
        runId,
        RewritePath.of(result),
        Math.min(plan.maxConcurrentGroups(), Math.max(1, result.fileGroups())),
        conflicted);
  }
}
