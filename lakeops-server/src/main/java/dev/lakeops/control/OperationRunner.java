package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.cost.ObjectRequestMeter;
import dev.lakeops.cost.RequestWindow;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunFigures;
import dev.lakeops.ledger.RunHandle;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunStart;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.runs.RecompactionMeter;
import dev.lakeops.runs.RunOutcomes;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.unit.ByteSize;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * Runs one due operation on one table through the core's entry points, under the table's
 * cross-engine lock (never waited for: a locked table is skipped), and records it in the ledger.
 */
final class OperationRunner {
  private final Catalog catalog;
  private final String catalogName;
  private final RunLedger ledger;
  private final LockOptions lockOptions;
  private final Optional<String> telemetryStore;
  private final Clock clock;
  private final dev.lakeops.learn.CompactionAdvisor advisor;

  /** The recompacted bytes of the compaction that just ran on this worker thread. */
  private final ThreadLocal<Long> lastRecompactedBytes = ThreadLocal.withInitial(() -> 0L);

  OperationRunner(
      Catalog catalog,
      String catalogName,
      RunLedger ledger,
      LockOptions lockOptions,
      Optional<String> telemetryStore,
      Clock clock) {
    this(
        catalog,
        catalogName,
        ledger,
        lockOptions,
        telemetryStore,
        clock,
        dev.lakeops.learn.CompactionAdvisor.NONE);
  }

  /**
   * With {@code advisor}: each compaction runs with the planner's options and reports back to it.
   */
  OperationRunner(
      Catalog catalog,
      String catalogName,
      RunLedger ledger,
      LockOptions lockOptions,
      Optional<String> telemetryStore,
      Clock clock,
      dev.lakeops.learn.CompactionAdvisor advisor) {
    this.advisor = requireNonNull(advisor, "advisor is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.ledger = requireNonNull(ledger, "ledger is null");
    this.lockOptions =
        requireNonNull(lockOptions, "lockOptions is null")
            .withOwnerLabel("serve")
            .withMaximumWait(Duration.ZERO);
    this.telemetryStore = requireNonNull(telemetryStore, "telemetryStore is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The figures of {@code work} with what it cost (a compaction measures its own). */
  private static RunFigures measured(java.util.function.Supplier<RunFigures> work) {
    RequestWindow window = ObjectRequestMeter.process().open();
    try {
      return work.get().withCost(window.close());
    } finally {
      window.close();
    }
  }

  /** Why a run is abandoned when the daemon stops under it. */
  static final String ABANDONED_AT_SHUTDOWN = "abandoned at shutdown before its commit";

  /**
   * Runs {@code job}'s operation and records it in the ledger. {@code abandonment} says why the
   * daemon gave up on the job (shutdown, a deadline), empty while it has not: a job that fails then
   * is recorded abandoned with that reason and the failure.
   */
  JobOutcome run(
      MaintenanceJob job,
      ByteSize memory,
      java.util.function.Supplier<Optional<String>> abandonment) {
    java.util.function.BooleanSupplier stopping = () -> abandonment.get().isPresent();
    DueOperation due = job.operation();
    boolean handedOff =
        due.operation() == MaintenanceOperation.COMPACT
            && job.policy().handsOffToSparkSubmit(due.estimatedCostBytes());
    RunHandle run =
        ledger.start(
            new RunStart(
                catalogName,
                job.table().toString(),
                operationName(due),
                due.reason(),
                handedOff ? RunHost.SPARK_SUBMIT : RunHost.SERVE,
                false));
    try {
      Table table = catalog.loadTable(job.table());
      if (handedOff) {
        return new SparkSubmitHandOff(catalogName, clock).run(job, table, run, stopping);
      }
      if (due.operation() == MaintenanceOperation.COMPACT) {
        CompactionResult result =
            compact(run.runId(), job.table().toString(), table, due, job.policy(), memory);
        RunFigures figures =
            RunOutcomes.withRecompactedBytes(RunOutcomes.of(result), lastRecompactedBytes.get());
        run.succeeded(figures);
        boolean lost = result.outputFiles() == 0 && result.commit().droppedGroups() > 0;
        String detail =
            summary(figures)
                + (result.commit().droppedGroups() > 0
                    ? ", "
                        + result.commit().droppedGroups()
                        + " group(s) dropped: "
                        + result.commit().dropReasons().get(0)
                    : "");
        return new JobOutcome(JobOutcome.Result.SUCCEEDED, detail, figures, lost);
      }
      RunFigures figures =
          measured(
              () ->
                  switch (due.operation()) {
                    case COMPACT -> throw new IllegalStateException("compactions are run above");
                    case EXPIRE_SNAPSHOTS ->
                        locked(table, () -> RunOutcomes.of(expire(table, job.policy())));
                    case REMOVE_ORPHAN_FILES ->
                        locked(table, () -> RunOutcomes.of(removeOrphans(table, job.policy())));
                    case REWRITE_MANIFESTS ->
                        locked(table, () -> RunOutcomes.of(rewriteManifests(table, job.policy())));
                    case REWRITE_POSITION_DELETES ->
                        locked(table, () -> RunOutcomes.of(rewritePositionDeletes(table, due)));
                    default ->
                        throw new IllegalStateException(
                            due.operation().commandName() + " is not run by serve");
                  });
      run.succeeded(figures);
      return new JobOutcome(JobOutcome.Result.SUCCEEDED, summary(figures), figures);
    } catch (TableLockedException e) {
      String detail = "skipped: " + LedgerWarnings.oneLine(e);
      run.abandoned(detail);
      return new JobOutcome(JobOutcome.Result.LOCKED, detail, RunFigures.NONE);
    } catch (RuntimeException | Error e) {
      Optional<String> abandoned = abandonment.get();
      if (abandoned.isPresent()) {
        String detail = abandoned.get() + ": " + LedgerWarnings.oneLine(e);
        run.abandoned(detail);
        return new JobOutcome(JobOutcome.Result.ABANDONED, detail, RunFigures.NONE);
      }
      String error = LedgerWarnings.oneLine(e);
      run.failed(error, RunFigures.NONE);
      return new JobOutcome(JobOutcome.Result.FAILED, error, RunFigures.NONE);
    }
  }

  static String operationName(DueOperation due) {
    return due.operation().commandName();
  }

  /**
   * Compacts with output files named after the ledger's run id (see {@link
   * dev.lakeops.rewrite.OutputFileNames#operationIdOfRun}), so that the files of a run whose
   * process died before its commit can be found and removed at the next start.
   */
  private CompactionResult compact(
      String runId,
      String name,
      Table table,
      DueOperation due,
      EffectivePolicy policy,
      ByteSize memory) {
    Optional<dev.lakeops.learn.RunPlan> plan =
        advisor.plan(name, policy, due.estimatedCostBytes(), memory);
    java.util.Map<String, String> options = new java.util.LinkedHashMap<>(due.rewriteOptions());
    plan.ifPresent(planned -> planned.options().forEach(options::putIfAbsent));
    CompactionRequest.Builder request =
        CompactionRequest.builder()
            .strategy(policy.compactStrategy())
            .options(options)
            .memoryBudget(memory)
            .telemetryStore(telemetryStore.orElse(null));
    policy.compactVerification().ifPresent(request::verify);
    due.where().ifPresent(request::where);
    plan.ifPresent(planned -> advisor.started(runId, name, planned));
    RecompactionMeter meter = new RecompactionMeter(CompactionListener.NONE);
    CompactionResult result =
        new AdvisedCompactor(new TableCompactor(meter, lockOptions))
            .compact(
                table,
                request.build(),
                dev.lakeops.rewrite.OutputFileNames.operationIdOfRun(runId));
    plan.ifPresent(planned -> advisor.finished(runId, name, planned, result));
    lastRecompactedBytes.set(meter.recompactedBytes());
    return result;
  }

  private RunFigures locked(Table table, Supplier<RunFigures> work) {
    try (HeldTableLock lock = new TableLocks(lockOptions).acquire(table)) {
      table.refresh();
      return work.get();
    }
  }

  private dev.lakeops.maintain.expire.SnapshotExpiryResult expire(
      Table table, EffectivePolicy policy) {
    return new SnapshotExpirer()
        .expire(
            table,
            SnapshotExpiryOptions.builder()
                .olderThan(clock.instant().minus(policy.expireOlderThan()))
                .retainLast(policy.expireRetainLast())
                .build());
  }

  private dev.lakeops.maintain.orphan.OrphanRemovalResult removeOrphans(
      Table table, EffectivePolicy policy) {
    return new OrphanFileRemover()
        .remove(table, OrphanRemovalOptions.builder().olderThan(policy.orphansOlderThan()).build());
  }

  private dev.lakeops.maintain.manifest.ManifestRewriteResult rewriteManifests(
      Table table, EffectivePolicy policy) {
    return new ManifestRewriter()
        .rewrite(
            table,
            new ManifestRewriteOptions(
                OptionalInt.empty(), Optional.of(policy.manifestsTargetSize()), false));
  }

  /**
   * Compacts the position delete files of the partitions the trigger chose (a partition with one
   * delete file gains nothing and is left alone).
   */
  private static dev.lakeops.deletes.PositionDeleteRewriteResult rewritePositionDeletes(
      Table table, DueOperation due) {
    return new dev.lakeops.deletes.PositionDeleteRewriter()
        .rewrite(
            table,
            dev.lakeops.deletes.PositionDeleteRewriter.MIN_INPUT_FILES_DEFAULT,
            false,
            dev.lakeops.expression.WhereParser.parse(due.where().orElse(null)));
  }

  static String summary(RunFigures figures) {
    return figures.inputFiles()
        + " -> "
        + figures.outputFiles()
        + " files, "
        + ByteSize.ofBytes(figures.inputBytes())
        + " -> "
        + ByteSize.ofBytes(figures.outputBytes())
        + (figures.removedDeleteFiles() > 0
            ? ", " + figures.removedDeleteFiles() + " delete files removed"
            : "")
        + (figures.snapshotId().isPresent()
            ? ", snapshot " + figures.snapshotId().getAsLong()
            : "");
  }
}
