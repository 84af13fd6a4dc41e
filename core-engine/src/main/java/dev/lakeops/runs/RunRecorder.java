package dev.lakeops.runs;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.cost.ObjectRequestMeter;
import dev.lakeops.cost.RequestWindow;
import dev.lakeops.ledger.LedgerWarnings;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.ledger.RunFigures;
import dev.lakeops.ledger.RunHandle;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.ledger.RunLedger;
import dev.lakeops.ledger.RunStart;
import dev.lakeops.lock.TableLockedException;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.StepRecorder;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.telemetry.store.StoreLocation;
import dev.lakeops.verify.GroupVerificationException;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Records the runs on one table in a {@link RunLedger}, for hosts: one call per operation.
 *
 * <pre>{@code
 * RunRecorder recorder = new RunRecorder(ledger, "lakeops", "db.events", RunHost.SPARK, RunStart.REQUESTED, false);
 * CompactionResult result = recorder.record(MaintenanceOperation.COMPACT, () -> compactor.compact(table, request));
 * }</pre>
 *
 * Every run's ledger row says what it cost (object requests, bytes, requests in flight, CPU time;
 * see {@link ObjectRequestMeter}). A failed run is recorded as failed with its one-line error
 * (passed through the error redaction, for hosts whose errors may carry secrets) and the failure is
 * rethrown; a run refused because another engine holds the table's lock is recorded as abandoned
 * (it changed nothing).
 */
public final class RunRecorder implements StepRecorder {
  private final RunLedger ledger;
  private final String catalog;
  private final String table;
  private final RunHost host;
  private final String reason;
  private final boolean dryRun;
  private final UnaryOperator<String> errorRedaction;

  public RunRecorder(
      RunLedger ledger, String catalog, String table, RunHost host, String reason, boolean dryRun) {
    this(ledger, catalog, table, host, reason, dryRun, UnaryOperator.identity());
  }

  private RunRecorder(
      RunLedger ledger,
      String catalog,
      String table,
      RunHost host,
      String reason,
      boolean dryRun,
      UnaryOperator<String> errorRedaction) {
    this.ledger = requireNonNull(ledger, "ledger is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.table = requireNonNull(table, "table is null");
    this.host = requireNonNull(host, "host is null");
    this.reason = requireNonNull(reason, "reason is null");
    this.dryRun = dryRun;
    this.errorRedaction = requireNonNull(errorRedaction, "errorRedaction is null");
  }

  /**
   * The figures of a run that failed with {@code failure}: its cost, and for a group that failed
   * verification (which fails the whole run without partial progress) that one failure.
   */
  private static RunFigures failedFigures(Throwable failure, RunCost cost) {
    RunFigures figures = RunFigures.NONE.withCost(cost);
    return failure instanceof GroupVerificationException
        ? figures.withVerification("", 0, 1)
        : figures;
  }

  /** This recorder for runs that are (or are not) dry runs. */
  public RunRecorder withDryRun(boolean value) {
    return new RunRecorder(ledger, catalog, table, host, reason, value, errorRedaction);
  }

  /** This recorder with {@code redaction} applied to every error it records. */
  public RunRecorder withErrorRedaction(UnaryOperator<String> redaction) {
    return new RunRecorder(ledger, catalog, table, host, reason, dryRun, redaction);
  }

  /**
   * The store this recorder writes to, where hosts sharing it keep their table leases too ({@link
   * dev.lakeops.lock.LockOptions#withLeaseStore}); empty when runs are not recorded.
   */
  public Optional<StoreLocation> leaseStore() {
    return ledger.storeLocation();
  }

  /** Runs {@code work} as one ledger row of {@code operation}; figures from its result's type. */
  public <T> T record(MaintenanceOperation operation, Supplier<T> work) {
    return record(operation, work, RunOutcomes::ofAny);
  }

  public <T> T record(
      MaintenanceOperation operation, Supplier<T> work, Function<T, RunFigures> figures) {
    return recordMeasured(operation, work, figures).result();
  }

  /**
   * Runs {@code work} as one ledger row of {@code operation}, figures from its result's type, and
   * returns its result with what it cost.
   */
  public <T> MeasuredRun<T> recordMeasured(MaintenanceOperation operation, Supplier<T> work) {
    return recordMeasured(operation, work, RunOutcomes::ofAny);
  }

  private <T> MeasuredRun<T> recordMeasured(
      MaintenanceOperation operation, Supplier<T> work, Function<T, RunFigures> figures) {
    requireNonNull(operation, "operation is null");
    requireNonNull(work, "work is null");
    requireNonNull(figures, "figures is null");
    RunHandle run =
        ledger.start(new RunStart(catalog, table, operation.commandName(), reason, host, dryRun));
    RequestWindow window = ObjectRequestMeter.process().open();
    T result;
    try {
      result = work.get();
    } catch (TableLockedException e) {
      window.close();
      run.abandoned(errorRedaction.apply(LedgerWarnings.oneLine(e)));
      throw e;
    } catch (RuntimeException | Error e) {
      run.failed(errorRedaction.apply(LedgerWarnings.oneLine(e)), failedFigures(e, window.close()));
      throw e;
    } finally {
      window.close();
    }
    RunFigures recorded = measured(figures.apply(result), window.close());
    run.succeeded(recorded);
    return new MeasuredRun<>(result, recorded.cost());
  }

  /**
   * {@code figures} as the run reported them, or with the recorder's own {@code cost} when the run
   * measured none itself (a compaction measures its own; expiry, orphans and manifests do not).
   */
  private static RunFigures measured(RunFigures figures, RunCost cost) {
    return figures.cost().equals(RunCost.NONE) ? figures.withCost(cost) : figures;
  }

  /**
   * Runs a compaction as one ledger row of {@link MaintenanceOperation#COMPACT}: {@code compaction}
   * receives the listener its compactor must report to, which counts the input bytes earlier
   * LakeOps compactions wrote.
   */
  public CompactionResult compact(
      CompactionListener listener, Function<CompactionListener, CompactionResult> compaction) {
    RecompactionMeter meter = new RecompactionMeter(listener);
    return record(
        MaintenanceOperation.COMPACT,
        () -> compaction.apply(meter),
        result ->
            RunOutcomes.withRecompactedBytes(RunOutcomes.of(result), meter.recompactedBytes()));
  }

  @Override
  public <T> T step(MaintenanceStep step, Supplier<T> work) {
    return record(step.operation(), work);
  }
}
