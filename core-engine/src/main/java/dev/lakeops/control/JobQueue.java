package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Due operations waiting for the budget, best benefit per byte first, aging so that nothing waits
 * forever. Not thread-safe: the daemon's scheduling thread owns it.
 */
final class JobQueue {
  /** A job's priority doubles for every this long it waits. */
  static final Duration AGING_STEP = Duration.ofMinutes(2);

  private final List<MaintenanceJob> jobs = new ArrayList<>();

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
    List<MaintenanceJob> ordered = new ArrayList<>(jobs);
    ordered.sort(Comparator.comparingDouble((MaintenanceJob job) -> job.priority(now, AGING_STEP)).reversed());
    for (MaintenanceJob job : ordered) {
      Optional<dev.lakeops.unit.ByteSize> memory = budget.tryReserve(job, now);
      if (memory.isPresent()) {
        jobs.remove(job);
        return Optional.of(new Started(job, memory.get()));
      }
    }
    return Optional.empty();
  }

  List<MaintenanceJob> snapshot() {
    return List.copyOf(jobs);
  }

  /** A job taken from the queue with the memory reserved for it. */
  record Started(MaintenanceJob job, dev.lakeops.unit.ByteSize memory) {}
}
