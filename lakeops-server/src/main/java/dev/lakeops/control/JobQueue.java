package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Due operations waiting for the budget, best benefit per predicted second first (per byte without
 * a planner; orphan cleanups last), aging so that nothing waits forever. Not thread-safe: the
 * daemon's scheduling thread owns it.
 */
final class JobQueue {
  /** Orphan cleanups that waited this long are ordered with the other operations. */
  static final Duration ORPHAN_PATIENCE = Duration.ofMinutes(30);

  /** A job's priority doubles for every this long it waits. */
  static final Duration AGING_STEP = Duration.ofMinutes(2);

  private final List<MaintenanceJob> jobs = new ArrayList<>();
  private final dev.lakeops.learn.CompactionAdvisor advisor;

  JobQueue() {
    this(dev.lakeops.learn.CompactionAdvisor.NONE);
  }

  /**
   * With {@code advisor}: compactions with a learned plan are ordered by benefit per predicted
   * second.
   */
  JobQueue(dev.lakeops.learn.CompactionAdvisor advisor) {
    this.advisor = requireNonNull(advisor, "advisor is null");
  }

  void add(MaintenanceJob job) {
    jobs.add(requireNonNull(job, "job is null"));
  }

  boolean isEmpty() {
    return jobs.isEmpty();
  }

  int size() {
    return jobs.size();
  }

  boolean hasJobsFor(TableIdentifier table) {
    return jobs.stream().anyMatch(job -> job.table().equals(table));
  }

  void removeTable(TableIdentifier table) {
    jobs.removeIf(job -> job.table().equals(table));
  }

  /** The best job that {@code budget} has room for, reserved and removed from the queue. */
  Optional<Started> startNext(LakeBudget budget, Instant now) {
    for (MaintenanceJob job : ordered(budget, now)) {
      if (takesTheLastSlot(job, budget, now)) {
        continue;
      }
      Optional<dev.lakeops.unit.ByteSize> memory = budget.tryReserve(job, now);
      if (memory.isPresent()) {
        jobs.remove(job);
        return Optional.of(new Started(job, memory.get()));
      }
    }
    return Optional.empty();
  }

  /** The queued jobs in the order they would start (each still waits for room in the budget). */
  List<MaintenanceJob> ordered(LakeBudget budget, Instant now) {
    boolean predicted = allPredicted(budget);
    List<MaintenanceJob> ordered = new ArrayList<>(jobs);
    ordered.sort(
        Comparator.comparing((MaintenanceJob job) -> waitsBehindOthers(job, now))
            .thenComparing(
                Comparator.comparingDouble(
                        (MaintenanceJob job) -> priority(job, budget, now, predicted))
                    .reversed()));
    return ordered;
  }

  /**
   * The job's priority: benefit per byte, or, when every queued compaction has a predicted duration
   * (the planner's, learned or from its defaults), benefit per predicted second (other operations
   * count as one second), aged alike.
   */
  private double priority(MaintenanceJob job, LakeBudget budget, Instant now, boolean predicted) {
    if (!predicted) {
      return job.priority(now, AGING_STEP);
    }
    double seconds = predictedSeconds(job, budget).orElse(1.0);
    double perByte = job.operation().benefitPerCost();
    double aging = perByte > 0 ? job.priority(now, AGING_STEP) / perByte : 1;
    return job.operation().estimatedBenefit() / Math.max(seconds, 1e-3) * aging;
  }

  private boolean allPredicted(LakeBudget budget) {
    List<MaintenanceJob> compactions =
        jobs.stream()
            .filter(job -> job.operation().operation() == MaintenanceOperation.COMPACT)
            .toList();
    return !compactions.isEmpty()
        && compactions.stream().allMatch(job -> predictedSeconds(job, budget).isPresent());
  }

  /** The predicted seconds of a compaction the planner sized; empty without a planner. */
  Optional<Double> predictedSeconds(MaintenanceJob job, LakeBudget budget) {
    if (job.operation().operation() != MaintenanceOperation.COMPACT) {
      return Optional.empty();
    }
    return advisor
        .plan(
            job.table().toString(),
            job.policy(),
            job.operation().estimatedCostBytes(),
            budget.settings().memory())
        .map(plan -> plan.predictedDuration().toMillis() / 1000.0);
  }

  /**
   * Orphan cleanup improves no health score and its cost (a listing of the table's location) is not
   * estimated: it runs after the other operations unless it has waited {@link #ORPHAN_PATIENCE}.
   */
  private static boolean waitsBehindOthers(MaintenanceJob job, Instant now) {
    return job.operation().operation() == MaintenanceOperation.REMOVE_ORPHAN_FILES
        && Duration.between(job.queuedAt(), now).compareTo(ORPHAN_PATIENCE) < 0;
  }

  /**
   * An orphan cleanup (which improves no health score) does not take the last free worker while the
   * lake has more than one: a compaction that becomes due meanwhile starts at once. One that has
   * waited {@link #ORPHAN_PATIENCE} may.
   */
  private static boolean takesTheLastSlot(MaintenanceJob job, LakeBudget budget, Instant now) {
    int slots = budget.settings().maxConcurrentTables();
    return waitsBehindOthers(job, now) && slots > 1 && budget.runningTables() + 1 >= slots;
  }

  List<MaintenanceJob> snapshot() {
    return List.copyOf(jobs);
  }

  /** A job taken from the queue with the memory reserved for it. */
  record Started(MaintenanceJob job, dev.lakeops.unit.ByteSize memory) {}
}
