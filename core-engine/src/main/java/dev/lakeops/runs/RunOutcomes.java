package dev.lakeops.runs;

import dev.lakeops.compact.CompactionResult;
import dev.lakeops.deletes.PositionDeleteRewriteResult;
import dev.lakeops.ledger.RunFigures;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import java.util.OptionalLong;

/** The ledger figures of each operation's result. */
public final class RunOutcomes {
  private RunOutcomes() {}

  /**
   * Input and output data files and bytes, removed delete files, peak memory, last snapshot, commit
   * conflicts and retries, and what the compaction cost.
   */
  public static RunFigures of(CompactionResult result) {
    return new RunFigures(
        result.inputFiles(),
        result.outputFiles(),
        result.inputBytes(),
        result.outputBytes(),
        result.removedDeleteFiles(),
        0,
        result.peakMemoryBytes(),
        result.snapshotId(),
        result.commitConflicts(),
        result.commitRetries(),
        result.cost(),
        result.verificationMode(),
        result.verifiedRows(),
        result.verificationFailures());
  }

  /** Content and metadata files deleted as input; delete files deleted as removed delete files. */
  public static RunFigures of(SnapshotExpiryResult result) {
    return new RunFigures(
        result.deletedFiles(),
        0,
        0,
        0,
        result.deletedPositionDeleteFiles() + result.deletedEqualityDeleteFiles(),
        0,
        0,
        OptionalLong.empty());
  }

  /** Orphans deleted (found, for a dry run) as input files. */
  public static RunFigures of(OrphanRemovalResult result) {
    return new RunFigures(
        result.dryRun() ? result.orphanFiles().size() : result.deletedFiles(),
        0,
        0,
        0,
        0,
        0,
        0,
        OptionalLong.empty());
  }

  /** Manifests replaced as input, manifests written as output. */
  public static RunFigures of(ManifestRewriteResult result) {
    return new RunFigures(
        result.rewrittenManifests(), result.addedManifests(), 0, 0, 0, 0, 0, result.snapshotId());
  }

  /**
   * Delete files replaced and their bytes as input, delete files written and their bytes as output,
   * the difference as removed delete files.
   */
  public static RunFigures of(PositionDeleteRewriteResult result) {
    return new RunFigures(
        result.rewritten().total(),
        result.added().total(),
        result.rewrittenBytes(),
        result.addedBytes(),
        Math.max(0, result.rewritten().total() - result.added().total()),
        0,
        0,
        result.snapshotId());
  }

  /** The figures of any operation's result, chosen by its type. */
  public static RunFigures ofAny(Object result) {
    if (result instanceof CompactionResult compaction) {
      return of(compaction);
    }
    if (result instanceof SnapshotExpiryResult expiry) {
      return of(expiry);
    }
    if (result instanceof OrphanRemovalResult orphans) {
      return of(orphans);
    }
    if (result instanceof ManifestRewriteResult manifests) {
      return of(manifests);
    }
    if (result instanceof PositionDeleteRewriteResult deletes) {
      return of(deletes);
    }
    return RunFigures.NONE;
  }

  /** {@code figures} with the input bytes an earlier LakeOps compaction had written. */
  public static RunFigures withRecompactedBytes(RunFigures figures, long recompactedBytes) {
    return new RunFigures(
        figures.inputFiles(),
        figures.outputFiles(),
        figures.inputBytes(),
        figures.outputBytes(),
        figures.removedDeleteFiles(),
        recompactedBytes,
        figures.peakMemoryBytes(),
        figures.snapshotId(),
        figures.commitConflicts(),
        figures.commitRetries(),
        figures.cost(),
        figures.verification(),
        figures.verifiedRows(),
        figures.verificationFailures());
  }
}
