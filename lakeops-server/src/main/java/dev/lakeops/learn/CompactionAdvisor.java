package dev.lakeops.learn;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.unit.ByteSize;
import java.util.Optional;

/** What {@code lakeops serve} asks the planner about each compaction, and tells it afterwards. */
public interface CompactionAdvisor {
  /** An advisor without plans: the daemon's fixed defaults apply. */
  CompactionAdvisor NONE =
      new CompactionAdvisor() {
        @Override
        public Optional<RunPlan> plan(
            String table, EffectivePolicy policy, long inputBytes, ByteSize ceiling) {
          return Optional.empty();
        }

        @Override
        public void started(String runId, String table, RunPlan plan) {}

        @Override
        public void finished(String runId, String table, RunPlan plan, CompactionResult result) {}
      };

  /**
   * The plan of compacting {@code inputBytes} of {@code table} with at most {@code ceiling} memory.
   */
  Optional<RunPlan> plan(String table, EffectivePolicy policy, long inputBytes, ByteSize ceiling);

  /** The run {@code runId} starts with {@code plan}. */
  void started(String runId, String table, RunPlan plan);

  /** The run ended with {@code result}. */
  void finished(String runId, String table, RunPlan plan, CompactionResult result);
}
