package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunFigures;
import dev.lakeops.ledger.RunHandle;
import dev.lakeops.lock.TableLease;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyKey;
import dev.lakeops.policy.SubmitCommand;
import dev.lakeops.trigger.DueOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * Runs a due compaction as a Spark application: starts {@code execution.spark-submit.command} with
 * the table and the compact flags, waits for it up to {@code execution.spark-submit.timeout}, and
 * records its outcome (exit code, the result lines {@code LakeOpsJob} printed) on the ledger's run.
 * The application takes the table's lock itself; a table whose lock another holder has is skipped
 * before anything starts.
 */
final class SparkSubmitHandOff {
  private final String catalogName;
  private final Clock clock;

  SparkSubmitHandOff(String catalogName, Clock clock) {
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * Runs {@code job} on {@code table} and finishes {@code run}.
   *
   * @throws TableLockedException when another holder's lease is current
   */
  JobOutcome run(MaintenanceJob job, Table table, RunHandle run, BooleanSupplier stopping) {
    EffectivePolicy policy = job.policy();
    String name = job.table().toString();
    Optional<TableLease> lease = TableLease.from(table.properties());
    if (lease.isPresent() && !lease.get().isExpiredAt(clock.instant())) {
      throw new TableLockedException(name, lease.get(), Duration.ZERO);
    }
    SubmitCommand command =
        policy
            .sparkSubmitCommand()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        PolicyKey.EXECUTION_SPARK_SUBMIT_COMMAND.key() + " is not set"));
    List<String> arguments =
        command.expand(catalogName, name, compactFlags(job.operation(), policy));
    ChildProcess.Ended ended;
    try {
      Path files = Files.createTempFile("lakeops-spark-submit-" + run.runId() + "-", "");
      Files.delete(files);
      ended = ChildProcess.run(arguments, files, policy.sparkSubmitTimeout());
    } catch (IOException e) {
      String error =
          "cannot start "
              + PolicyKey.EXECUTION_SPARK_SUBMIT_COMMAND.key()
              + " '"
              + arguments.get(0)
              + "': "
              + e.getMessage()
              + "; check the program's path";
      run.failed(error, RunFigures.NONE);
      return new JobOutcome(JobOutcome.Result.FAILED, error, RunFigures.NONE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      String detail = "abandoned at shutdown: the spark-submit process was killed";
      run.abandoned(detail);
      return new JobOutcome(JobOutcome.Result.ABANDONED, detail, RunFigures.NONE);
    }
    return finish(ended, table, run, policy, stopping);
  }

  private static JobOutcome finish(
      ChildProcess.Ended ended,
      Table table,
      RunHandle run,
      EffectivePolicy policy,
      BooleanSupplier stopping) {
    if (ended.exitCode().isEmpty()) {
      String error =
          "spark-submit still running after "
              + policy.text(PolicyKey.EXECUTION_SPARK_SUBMIT_TIMEOUT)
              + " ("
              + PolicyKey.EXECUTION_SPARK_SUBMIT_TIMEOUT.key()
              + "): killed; its output is in "
              + ended.errors();
      run.failed(error, RunFigures.NONE);
      return new JobOutcome(JobOutcome.Result.FAILED, error, RunFigures.NONE);
    }
    int exitCode = ended.exitCode().getAsInt();
    JobSummaryLines summary = JobSummaryLines.parse(ended.outputLines());
    RunFigures figures =
        summary.present() ? withOutputBytes(summary.figures(), table) : RunFigures.NONE;
    if (exitCode == 0) {
      ended.deleteFiles();
      String detail =
          (summary.present()
                  ? OperationRunner.summary(figures)
                  : "no result lines on the application's standard output")
              + (summary.failedDataFiles() > 0
                  ? ", " + summary.failedDataFiles() + " data files failed"
                  : "")
              + " (spark-submit)";
      run.succeeded(figures);
      return new JobOutcome(JobOutcome.Result.SUCCEEDED, detail, figures);
    }
    String reason = SparkSubmitErrors.reason(ended.errorLines());
    if (SparkSubmitErrors.isLocked(reason)) {
      ended.deleteFiles();
      String detail = "skipped: " + reason;
      run.abandoned(detail);
      return new JobOutcome(JobOutcome.Result.LOCKED, detail, RunFigures.NONE);
    }
    String error =
        "spark-submit exited with "
            + exitCode
            + ": "
            + reason
            + " (full output: "
            + ended.errors()
            + ")";
    if (stopping.getAsBoolean()) {
      run.abandoned(error);
      return new JobOutcome(JobOutcome.Result.ABANDONED, error, RunFigures.NONE);
    }
    run.failed(error, figures);
    return new JobOutcome(JobOutcome.Result.FAILED, error, figures);
  }

  /**
   * {@code figures} with the bytes the application's commit added, from that snapshot's summary
   * (the application's result has no column for them).
   */
  private static RunFigures withOutputBytes(RunFigures figures, Table table) {
    if (figures.snapshotId().isEmpty()) {
      return figures;
    }
    table.refresh();
    Snapshot snapshot = table.snapshot(figures.snapshotId().getAsLong());
    String added =
        snapshot == null ? null : snapshot.summary().get(SnapshotSummary.ADDED_FILE_SIZE_PROP);
    if (added == null) {
      return figures;
    }
    return new RunFigures(
        figures.inputFiles(),
        figures.outputFiles(),
        figures.inputBytes(),
        Long.parseLong(added),
        figures.removedDeleteFiles(),
        figures.recompactedBytes(),
        figures.peakMemoryBytes(),
        figures.snapshotId(),
        figures.commitConflicts(),
        figures.commitRetries());
  }

  /** The CLI's compact flags for what is due: strategy, the partitions' filter, rewrite options. */
  static List<String> compactFlags(DueOperation due, EffectivePolicy policy) {
    List<String> flags = new ArrayList<>();
    flags.add("--strategy");
    flags.add(policy.compactStrategy().displayName());
    policy
        .compactVerification()
        .ifPresent(
            mode -> {
              flags.add("--verify");
              flags.add(mode.displayName());
            });
    due.where()
        .ifPresent(
            where -> {
              flags.add("--where");
              flags.add(where);
            });
    due.rewriteOptions()
        .forEach(
            (option, value) -> {
              flags.add("--option");
              flags.add(option + "=" + value);
            });
    return flags;
  }
}
