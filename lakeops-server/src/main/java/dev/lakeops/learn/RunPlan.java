package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.time.Duration;
import java.util.Map;

/**
 * How the planner sizes one compaction, and what it expects of it, decided before it starts.
 *
 * @param path the rewrite path it expects
 * @param predictedDuration expected wall time
 * @param predictedPeakMemory expected peak memory
 * @param memoryShare the memory the run asks of the lake's budget
 * @param maxConcurrentGroups {@code max-concurrent-file-group-rewrites}
 * @param partialProgress {@code partial-progress.enabled} (on where conflicts were seen)
 * @param options the Iceberg rewrite options this plan sets (never one the policy pinned)
 * @param learned whether the figures come from the table's history ({@code false}: defaults)
 */
public record RunPlan(
    RewritePath path,
    Duration predictedDuration,
    ByteSize predictedPeakMemory,
    ByteSize memoryShare,
    int maxConcurrentGroups,
    boolean partialProgress,
    Map<String, String> options,
    boolean learned) {
  public RunPlan {
    requireNonNull(path, "path is null");
    requireNonNull(predictedDuration, "predictedDuration is null");
    requireNonNull(predictedPeakMemory, "predictedPeakMemory is null");
    requireNonNull(memoryShare, "memoryShare is null");
    options = Map.copyOf(requireNonNull(options, "options is null"));
    if (maxConcurrentGroups < 1) {
      throw new IllegalArgumentException(
          "A plan rewrites at least one group at a time, got " + maxConcurrentGroups);
    }
  }
}
