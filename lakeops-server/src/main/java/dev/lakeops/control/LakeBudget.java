package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.LakeSettings;
import dev.lakeops.unit.ByteSize;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The lake-wide budget: at most {@code max-concurrent-tables} tables at work, one at a time per
 * table; each compaction's memory budget carved from the total {@code memory}; compactions started
 * in the last hour within {@code max-bytes-per-hour}. A job that does not fit waits. Not
 * thread-safe: the daemon's scheduling thread owns it.
 */
final class LakeBudget {
  /** No compaction gets less than this; a smaller share waits for running jobs to finish. */
  static final ByteSize MINIMUM_JOB_MEMORY = ByteSize.ofMegabytes(64);

  private static final Duration HOUR = Duration.ofHours(1);

  private final LakeSettings settings;
  private final Set<TableIdentifier> running = new HashSet<>();
  private final Deque<StartedBytes> startedBytes = new ArrayDeque<>();
  private long memoryInUse;

  private record StartedBytes(Instant at, long bytes) {}

  private final dev.lakeops.learn.CompactionAdvisor advisor;

  LakeBudget(LakeSettings settings) {
    this(settings, dev.lakeops.learn.CompactionAdvisor.NONE);
  }

  /**
   * With {@code advisor}: a compaction asks for the memory its learned plan needs (defaults: {@link
   * #jobMemory}); a table whose policy pins {@code compact.memory} asks for that.
   */
  LakeBudget(LakeSettings settings, dev.lakeops.learn.CompactionAdvisor advisor) {
    this.settings = requireNonNull(settings, "settings is null");
    this.advisor = requireNonNull(advisor, "advisor is null");
  }

  /** Memory held by running jobs. */
  long memoryInUseBytes() {
    return memoryInUse;
  }

  LakeSettings settings() {
    return settings;
  }

  /** The memory each compaction asks for: an equal share of the total per concurrent table. */
  ByteSize jobMemory() {
    long share = settings.memory().bytes() / settings.maxConcurrentTables();
    return ByteSize.ofBytes(
        Math.max(share, Math.min(MINIMUM_JOB_MEMORY.bytes(), settings.memory().bytes())));
  }

  /**
   * Reserves room for {@code job}, returning the memory it may use, or empty when it must wait
   * (with {@link #whyWaiting} saying why).
   */
  Optional<ByteSize> tryReserve(MaintenanceJob job, Instant now) {
    if (whyWaiting(job, now).isPresent()) {
      return Optional.empty();
    }
    ByteSize memory = memoryOf(job);
    running.add(job.table());
    memoryInUse += memory.bytes();
    if (job.operation().operation().rewritesFiles()) {
      startedBytes.add(new StartedBytes(now, job.operation().estimatedCostBytes()));
    }
    return Optional.of(memory);
  }

  /** Why {@code job} cannot start now; empty when it can. */
  Optional<String> whyWaiting(MaintenanceJob job, Instant now) {
    if (running.contains(job.table())) {
      return Optional.of("another operation runs on the table");
    }
    if (running.size() >= settings.maxConcurrentTables()) {
      return Optional.of("max-concurrent-tables " + settings.maxConcurrentTables() + " reached");
    }
    ByteSize memory = memoryOf(job);
    if (memoryInUse + memory.bytes() > settings.memory().bytes()) {
      return Optional.of(
          "memory: "
              + ByteSize.ofBytes(memoryInUse)
              + " of "
              + settings.memory()
              + " in use, needs "
              + memory);
    }
    if (job.operation().operation().rewritesFiles() && settings.maxBytesPerHour().isPresent()) {
      forgetOlderThan(now.minus(HOUR));
      long inLastHour = startedBytes.stream().mapToLong(StartedBytes::bytes).sum();
      long limit = settings.maxBytesPerHour().get().bytes();
      // a job larger than the whole limit still runs, alone in its hour, so it is never stuck
      if (inLastHour > 0 && inLastHour + job.operation().estimatedCostBytes() > limit) {
        return Optional.of(
            "max-bytes-per-hour "
                + settings.maxBytesPerHour().get()
                + ": "
                + ByteSize.ofBytes(inLastHour)
                + " rewritten in the last hour");
      }
    }
    return Optional.empty();
  }

  void release(TableIdentifier table, ByteSize memory) {
    if (running.remove(table)) {
      memoryInUse -= memory.bytes();
    }
  }

  int runningTables() {
    return running.size();
  }

  boolean isRunning(TableIdentifier table) {
    return running.contains(table);
  }

  private ByteSize memoryOf(MaintenanceJob job) {
    if (job.operation().operation() != MaintenanceOperation.COMPACT) {
      return ByteSize.ofBytes(0);
    }
    Optional<ByteSize> pinned = job.policy().compactMemory();
    if (pinned.isPresent()) {
      return ByteSize.ofBytes(Math.min(pinned.get().bytes(), settings.memory().bytes()));
    }
    return advisor
        .plan(
            job.table().toString(),
            job.policy(),
            job.operation().estimatedCostBytes(),
            settings.memory())
        .filter(dev.lakeops.learn.RunPlan::learned)
        .map(dev.lakeops.learn.RunPlan::memoryShare)
        .orElse(jobMemory());
  }

  private void forgetOlderThan(Instant cutoff) {
    while (!startedBytes.isEmpty() && startedBytes.peekFirst().at().isBefore(cutoff)) {
      startedBytes.pollFirst();
    }
  }
}
