package dev.lakeops.web;

import java.util.Optional;

/** What the planner predicted for a run before it started, looked up by run id. */
@FunctionalInterface
public interface RunPredictions {
  /** No predictions known. */
  RunPredictions NONE = runId -> Optional.empty();

  Optional<Prediction> of(String runId);

  /**
   * @param seconds predicted wall time
   * @param peakMemoryBytes predicted peak memory
   */
  record Prediction(double seconds, long peakMemoryBytes) {}
}
