package dev.lakeops.maintain;

import static java.util.Objects.requireNonNull;

import dev.lakeops.advise.AdvisedCompactor;
import dev.lakeops.compact.CheckedCompaction;
import dev.lakeops.compact.CompactionListener;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.Table;

/**
 * The entry point of {@code maintain}: expire snapshots, remove orphan files, compact, rewrite
 * manifests — in that order, each step reading the table as the previous one left it. A failing
 * step stops the run; the steps before it stay done.
 */
public final class TableMaintainer {
  private final CompactionListener compactionListener;
  private final StepRecorder recorder;
  private final LockOptions lockOptions;

  public TableMaintainer() {
    this(CompactionListener.NONE);
  }

  public TableMaintainer(CompactionListener compactionListener) {
    this(compactionListener, StepRecorder.NONE);
  }

  /**
   * A maintainer that runs each step through {@code recorder} (e.g. to record it in the ledger).
   */
  public TableMaintainer(CompactionListener compactionListener, StepRecorder recorder) {
    this(compactionListener, recorder, LockOptions.defaults());
  }

  /** A maintainer whose compaction step takes the table's lock with {@code lockOptions}. */
  public TableMaintainer(
      CompactionListener compactionListener, StepRecorder recorder, LockOptions lockOptions) {
    this.compactionListener = requireNonNull(compactionListener, "compactionListener is null");
    this.recorder = requireNonNull(recorder, "recorder is null");
    this.lockOptions = requireNonNull(lockOptions, "lockOptions is null");
  }

  public MaintenanceResult maintain(Table table, MaintenanceOptions options) {
    requireNonNull(table, "table is null");
    requireNonNull(options, "options is null");
    if (options.runs(MaintenanceStep.COMPACT)) {
      // a compaction the run would refuse is refused before the first step changes anything
      CheckedCompaction.of(table, options.compaction());
    }
    long started = System.nanoTime();
    Optional<SnapshotExpiryResult> expiry = Optional.empty();
    Optional<OrphanRemovalResult> orphans = Optional.empty();
    Optional<CompactionResult> compaction = Optional.empty();
    Optional<ManifestRewriteResult> manifests = Optional.empty();
    if (options.runs(MaintenanceStep.EXPIRE)) {
      expiry =
          Optional.of(
              recorder.step(
                  MaintenanceStep.EXPIRE,
                  () -> new SnapshotExpirer().expire(table, options.expiry())));
      table.refresh();
    }
    if (options.runs(MaintenanceStep.ORPHANS)) {
      orphans =
          Optional.of(
              recorder.step(
                  MaintenanceStep.ORPHANS,
                  () -> new OrphanFileRemover().remove(table, options.orphans())));
      table.refresh();
    }
    if (options.runs(MaintenanceStep.COMPACT)) {
      compaction =
          Optional.of(
              recorder.step(
                  MaintenanceStep.COMPACT,
                  () ->
                      new AdvisedCompactor(new TableCompactor(compactionListener, lockOptions))
                          .compact(table, options.compaction())));
      table.refresh();
    }
    if (options.runs(MaintenanceStep.MANIFESTS)) {
      manifests =
          Optional.of(
              recorder.step(
                  MaintenanceStep.MANIFESTS,
                  () -> new ManifestRewriter().rewrite(table, options.manifests())));
      table.refresh();
    }
    return new MaintenanceResult(
        table.name(),
        expiry,
        orphans,
        compaction,
        manifests,
        Duration.ofNanos(System.nanoTime() - started));
  }
}
