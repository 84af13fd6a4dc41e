package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.store.StoreLocation;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every maintenance run, whoever started it, as a row in the store shared with telemetry. Hosts
 * record a run with one call:
 *
 * <pre>{@code
 * CompactionResult result = ledger.record(
 *     new RunStart("lakeops", "db.events", "compact", RunStart.REQUESTED, RunHost.SPARK, false),
 *     () -> compactor.compact(table, request),
 *     RunOutcomes::of);
 * }</pre>
 *
 * Writing the ledger never fails the run it records: a store error is reported through {@link
 * LedgerWarnings} and the run goes on.
 */
public interface RunLedger extends AutoCloseable {
  /** Records that a run starts; the handle ends it. */
  RunHandle start(RunStart start);

  /** Ledger rows matching {@code query}, newest first. */
  List<RunRecord> list(RunQuery query);

  /**
   * Marks a run still {@link RunStatus#RUNNING} as {@link RunStatus#ABANDONED} with {@code reason}
   * (for runs whose process is gone); returns whether it was still running.
   */
  boolean abandon(String runId, String reason);

  /** Where the ledger lives, safe for logs (no password). */
  String describe();

  /**
   * The store this ledger writes to, where hosts also keep table leases ({@link JdbcLeaseTable});
   * empty for a ledger that records nothing.
   */
  default Optional<StoreLocation> storeLocation() {
    return Optional.empty();
  }

  @Override
  void close();

  /**
   * Runs {@code work} as one recorded run: {@code succeeded} with {@code figures} of its result, or
   * {@code failed} with the exception's message (then rethrown).
   */
  default <T> T record(RunStart start, Supplier<T> work, Function<T, RunFigures> figures) {
    requireNonNull(work, "work is null");
    requireNonNull(figures, "figures is null");
    RunHandle run = start(start);
    T result;
    try {
      result = work.get();
    } catch (RuntimeException | Error e) {
      run.failed(LedgerWarnings.oneLine(e), RunFigures.NONE);
      throw e;
    }
    run.succeeded(figures.apply(result));
    return result;
  }

  /** A ledger that records nothing and lists nothing. */
  static RunLedger disabled() {
    return DisabledRunLedger.INSTANCE;
  }
}
