package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.operation.call.CompactCall;
import dev.lakeops.operation.call.RunSettings;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.runs.RunRecorder;
import dev.lakeops.telemetry.event.TableName;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks one table after each completed checkpoint and compacts it when a threshold is crossed.
 * Everything that touches the table runs on one thread of its own, never on a Flink task thread:
 * {@link #checkpointCompleted} only queues a check. At most one check (and so one compaction) runs
 * at a time, and at most one more waits; further notifications while one waits are dropped, since
 * the waiting check will see their commits anyway. Every compaction is a row of the run ledger
 * (host {@code flink}, reason {@code checkpoint N: why}) when the hook has a telemetry store.
 */
final class CompactionService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionService.class);
  private static final Duration PATTERN_WINDOW = Duration.ofMinutes(10);
  private static final int REPORTED_COMMITS_KEPT = 10_000;

  private final Table table;
  private final CompactionHookOptions options;
  private final LockOptions lockOptions;
  private final RunLedger ledger;
  private final LedgerName ledgerName;
  private final WriteHistory history;
  private final CompactionTrigger trigger;
  private final WritePattern pattern;
  private final Optional<TelemetryRecorder> telemetry;
  private final TableName telemetryName;
  private final Clock clock;
  private final Instant startedAt;
  private final ThreadPoolExecutor executor;
  private final AtomicBoolean checkQueued = new AtomicBoolean();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicBoolean finishing = new AtomicBoolean();
  private final FailureLog failureLog = new FailureLog();
  private final Set<Long> reportedCommits = new LinkedHashSet<>();
  private final AtomicLong checks = new AtomicLong();
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong lockRefusals = new AtomicLong();
  private final AtomicLong conflicts = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private Optional<Instant> lastStart = Optional.empty();

  CompactionService(
      Table table,
      CompactionHookOptions options,
      String lockOwnerLabel,
      Optional<TelemetryRecorder> telemetry,
      RunLedger ledger,
      Clock clock) {
    this.table = requireNonNull(table, "table is null");
    this.options = requireNonNull(options, "options is null");
    this.ledger = requireNonNull(ledger, "ledger is null");
    // a job that shares a run store keeps its lease there, beside the other hosts' leases
    this.lockOptions = options.lockOptions(lockOwnerLabel).withLeaseStore(ledger.storeLocation());
    this.ledgerName = LedgerName.of(table.name());
    this.history = new WriteHistory(options.smallFileThreshold());
    this.trigger = new CompactionTrigger(options);
    this.telemetry = requireNonNull(telemetry, "telemetry is null");
    this.telemetryName = WriteTelemetry.tableName(table.name());
    this.clock = requireNonNull(clock, "clock is null");
    this.startedAt = clock.instant();
    this.pattern = new WritePattern(PATTERN_WINDOW, startedAt);
    this.executor =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(1),
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-compaction-" + table.name());
              thread.setDaemon(true);
              return thread;
            },
            new ThreadPoolExecutor.DiscardPolicy());
  }

  /** Queues a check of the table; returns at once. Does nothing once the service was stopped. */
  void checkpointCompleted(long checkpointId) {
    if (stopped.get()) {
      return;
    }
    if (checkQueued.compareAndSet(false, true)) {
      try {
        executor.execute(() -> check(checkpointId));
      } catch (RejectedExecutionException e) {
        checkQueued.set(false);
      }
    }
  }

  private void check(long checkpointId) {
    checkQueued.set(false);
    if (stopped.get()) {
      return;
    }
    checks.incrementAndGet();
    try {
      table.refresh();
      WriteSignals signals = history.read(table);
      report(history.unseenWriterCommits(table, startedAt.toEpochMilli(), reportedCommits));
      Instant now = clock.instant();
      Optional<String> reason = trigger.reasonToCompact(signals, now, lastStart);
      if (reason.isPresent()) {
        lastStart = Optional.of(now);
        compact(signals, reason.get(), checkpointId);
      }
    } catch (Throwable failure) {
      // Every failure, Errors included (Arrow's ExceptionInInitializerError without the JVM
      // option), is counted and logged; none reaches the Flink task, which goes on writing.
      failures.incrementAndGet();
      failureLog.failed(table.name(), checkpointId, failure);
    }
  }

  private void compact(WriteSignals signals, String reason, long checkpointId) {
    Optional<String> where =
        PartitionFilters.whereFor(table, signals.affectedPartitions(), options.maxPartitions());
    CompactCall call =
        CompactCall.bind(
            OperationArguments.on(Host.FLINK)
                .with("where", where.orElse(null))
                .with(Operations.MEMORY_BUDGET, options.memory())
                .with(Operations.VERIFY, options.verify().orElse(null))
                .with("options", rewriteOptions(signals)));
    LOG.info(
        "Compacting {} after checkpoint {}: {}; where {}",
        table.name(),
        checkpointId,
        reason,
        where.orElse("(whole table)"));
    try {
      RunRecorder recorder =
          new RunRecorder(
              ledger,
              ledgerName.catalog(),
              ledgerName.table(),
              RunHost.FLINK,
              "checkpoint " + checkpointId + ": " + reason,
              false);
      CompactionResult result =
          call.run(table, RunSettings.recordedBy(recorder).withLockOptions(lockOptions)).result();
      compactions.incrementAndGet();
      LOG.info(
          "Compacted {}: {} data files into {} in {}",
          table.name(),
          result.inputFiles(),
          result.outputFiles(),
          result.elapsed());
    } catch (TableLockedException e) {
      lockRefusals.incrementAndGet();
      LOG.info("Skipped compacting {}: {}", table.name(), e.getMessage());
    } catch (ValidationException | CommitFailedException e) {
      // A concurrent commit removed or deleted from files this compaction rewrote. The
      // compaction's output was cleaned up; the writer's commit stands. The next check retries.
      conflicts.incrementAndGet();
      LOG.info(
          "Compaction of {} lost to a concurrent commit; retrying after a later checkpoint: {}",
          table.name(),
          e.getMessage());
    } catch (CommitStateUnknownException e) {
      failures.incrementAndGet();
      LOG.warn(
          "Compaction commit of {} has an unknown state; its files were kept", table.name(), e);
    }
  }

  private Map<String, String> rewriteOptions(WriteSignals signals) {
    Map<String, String> rewrite = new HashMap<>(options.rewriteOptions());
    if (options.smallFileThreshold().isPresent()) {
      rewrite.putIfAbsent(
          RewriteOptions.MIN_FILE_SIZE_BYTES, Long.toString(signals.smallFileThresholdBytes()));
    }
    return rewrite;
  }

  /** Records each writer commit once, oldest first, including those made while compacting. */
  private void report(List<SnapshotWrites> unseenNewestFirst) {
    for (int index = unseenNewestFirst.size() - 1; index >= 0; index--) {
      SnapshotWrites commit = unseenNewestFirst.get(index);
      reportedCommits.add(commit.snapshotId());
      pattern.add(commit);
      telemetry.ifPresent(recorder -> recorder.record(WriteTelemetry.event(telemetryName, commit)));
      if (reportedCommits.size() > REPORTED_COMMITS_KEPT) {
        reportedCommits.remove(reportedCommits.iterator().next());
      }
    }
  }

  double commitsPerMinute() {
    return pattern.commitsPerMinute(clock.instant());
  }

  double filesPerCommit() {
    return pattern.filesPerCommit(clock.instant());
  }

  long checks() {
    return checks.get();
  }

  long compactions() {
    return compactions.get();
  }

  long lockRefusals() {
    return lockRefusals.get();
  }

  long conflicts() {
    return conflicts.get();
  }

  long failures() {
    return failures.get();
  }

  /** 1 once the input ended and the service waits for its running compaction, else 0. */
  long finishing() {
    return finishing.get() ? 1 : 0;
  }

  /**
   * Stops checking, and waits up to the close timeout for a running check or compaction to end;
   * after that it is interrupted and abandoned. The operator calls this from {@code finish()},
   * while its task still takes part in checkpoints (their barriers wait for it), never from {@code
   * close()}, where the task would decline every checkpoint meanwhile.
   */
  void finishRunningCompaction() {
    finishing.set(true);
    stopped.set(true);
    executor.shutdown();
    try {
      if (executor.awaitTermination(options.closeTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        reportLastCommits();
      } else {
        LOG.warn(
            "Compaction of {} still runs after the close timeout of {}; abandoning it (its lock"
                + " lease expires within {} if it cannot release it)",
            table.name(),
            options.closeTimeout(),
            options.leaseDuration());
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Records the writer commits made since the last check (those made while the last compaction ran,
   * which no later checkpoint will report). Called once the check thread ended.
   */
  private void reportLastCommits() {
    try {
      table.refresh();
      report(history.unseenWriterCommits(table, startedAt.toEpochMilli(), reportedCommits));
    } catch (RuntimeException failure) {
      LOG.warn("Could not record the last writer commits of {}", table.name(), failure);
    }
  }

  /**
   * Stops checking at once, without waiting: a check or compaction still running (the job was
   * cancelled or failed, or stopped without draining) is interrupted and abandoned; the core
   * releases its lock and deletes its uncommitted files as it unwinds.
   */
  @Override
  public void close() {
    stopped.set(true);
    if (!executor.isTerminated()) {
      LOG.info("Abandoning the running compaction check of {}", table.name());
    }
    executor.shutdownNow();
  }
}
