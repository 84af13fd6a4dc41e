package dev.lakeops.learn;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What a table's recent runs on one path say: throughput per core, peak memory per input byte,
 * conflicts. Recent runs weigh more (weights 1, 2, ... oldest to newest over the window).
 */
public final class PerformanceModel {
  private final List<RunObservation> runs;

  /** {@code runs}: one table's runs on one path, any order; the newest {@code window} are used. */
  public PerformanceModel(List<RunObservation> runs, int window) {
    requireNonNull(runs, "runs is null");
    this.runs =
        runs.stream()
            .filter(run -> run.inputBytes() > 0)
            .sorted(Comparator.comparing(RunObservation::started).reversed())
            .limit(window)
            .sorted(Comparator.comparing(RunObservation::started))
            .toList();
  }

  public boolean hasHistory() {
    return !runs.isEmpty();
  }

  public int runs() {
    return runs.size();
  }

  public OptionalDouble throughputPerCore() {
    return weighted(RunObservation::throughputPerCore);
  }

  public OptionalDouble memoryPerInputByte() {
    return weighted(RunObservation::memoryPerInputByte);
  }

  /** Peak memory per file group rewritten at once: where memory levels off for large inputs. */
  public OptionalDouble peakMemoryPerGroup() {
    return weighted(run -> run.peakMemoryBytes() / (double) run.cores());
  }

  /**
   * The share of its memory a run held at its peak: the engine sizes its buffers to what it is
   * given.
   */
  public OptionalDouble memoryUseOfShare() {
    return weighted(RunObservation::memoryUseOfShare);
  }

  /** Whether any of the recent runs hit a commit conflict. */
  public boolean conflictsSeen() {
    return runs.stream().anyMatch(run -> run.commitConflicts() > 0);
  }

  private OptionalDouble weighted(java.util.function.ToDoubleFunction<RunObservation> figure) {
    if (runs.isEmpty()) {
      return OptionalDouble.empty();
    }
    double sum = 0;
    double weights = 0;
    for (int index = 0; index < runs.size(); index++) {
      double weight = index + 1;
      sum += weight * figure.applyAsDouble(runs.get(index));
      weights += weight;
    }
    return OptionalDouble.of(sum / weights);
  }
}
