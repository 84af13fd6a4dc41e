package dev.lakeops.control;

import dev.lakeops.ledger.RunFigures;
import dev.lakeops.observe.BudgetUse;
import dev.lakeops.observe.LakeObserver;
import dev.lakeops.observe.QueuedOperation;
import dev.lakeops.observe.RunSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/** Turns the daemon's state into what its {@link LakeObserver} (metrics, dashboard) is told. */
final class DaemonReports {
  private DaemonReports() {}

  static void queueAndBudget(
      LakeObserver observer, JobQueue queue, LakeBudget budget, Instant now) {
    List<QueuedOperation> queued =
        queue.ordered(budget, now).stream()
            .map(
                job ->
                    new QueuedOperation(
                        job.table().toString(),
                        OperationRunner.operationName(job.operation()),
                        job.operation().reason(),
                        job.operation().benefitPerCost(),
                        queue
                            .predictedSeconds(job, budget)
                            .map(seconds -> Duration.ofMillis(Math.round(seconds * 1000))),
                        OptionalLong.empty()))
            .toList();
    observer.queueChanged(queued);
    observer.budgetChanged(
        new BudgetUse(budget.memoryInUseBytes(), budget.settings().memory().bytes()));
  }

  static void finished(
      LakeObserver observer,
      MaintenanceJob job,
      JobOutcome outcome,
      Duration elapsed,
      Instant now) {
    String table = job.table().toString();
    if (outcome.result() == JobOutcome.Result.LOCKED) {
      observer.lockSkipped(table);
    }
    String status =
        switch (outcome.result()) {
          case SUCCEEDED -> "succeeded";
          case FAILED -> "failed";
          case LOCKED, ABANDONED -> "abandoned";
        };
    RunFigures figures = outcome.figures();
    observer.runFinished(
        new RunSummary(
            "serve-" + table + "-" + now.toEpochMilli(),
            table,
            OperationRunner.operationName(job.operation()),
            job.operation().reason(),
            "serve",
            now.minus(elapsed),
            Optional.of(now),
            status.toLowerCase(Locale.ROOT),
            outcome.result() == JobOutcome.Result.SUCCEEDED
                ? Optional.empty()
                : Optional.of(outcome.detail()),
            figures.inputFiles(),
            figures.outputFiles(),
            figures.inputBytes(),
            figures.outputBytes(),
            figures.peakMemoryBytes(),
            figures.commitConflicts(),
            figures.snapshotId(),
            figures.cost(),
            figures.verifiedRows(),
            figures.verificationFailures()));
  }
}
