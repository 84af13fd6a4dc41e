package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunCost;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a compaction did, in three parts: the rewrite's figures, the layout's (sort and zorder), and
 * the commit's. The accessors below the components name every figure directly; their names map one
 * to one onto the CLI's {@code --json} output and the host procedures' result columns.
 *
 * @param table the table's full name
 * @param strategy the strategy that ran
 * @param strategyReason why the auto strategy chose the strategy that ran ({@code
 *     strategy_reason}); empty for an explicit strategy
 * @param rewrite groups, files, bytes and memory of the rewrite
 * @param layout spill and overlap figures of sort and zorder
 * @param commit how the groups were committed, retried, re-based or dropped
 * @param elapsed wall time of the whole operation
 * @param snapshotId the last committed snapshot, empty for a dry run or when nothing was committed
 * @param dryRun whether this was only a plan
 * @param cost object storage requests and bytes, requests in flight and CPU time while it ran
 * @param verification the verification mode and the rows of groups that passed it
 */
public record CompactionResult(
    String table,
    String strategy,
    String strategyReason,
    RewriteFigures rewrite,
    LayoutFigures layout,
    CommitFigures commit,
    Duration elapsed,
    OptionalLong snapshotId,
    boolean dryRun,
    RunCost cost,
    VerificationFigures verification) {
  public CompactionResult {
    requireNonNull(table, "table is null");
    requireNonNull(strategy, "strategy is null");
    requireNonNull(strategyReason, "strategyReason is null");
    requireNonNull(rewrite, "rewrite is null");
    requireNonNull(layout, "layout is null");
    requireNonNull(commit, "commit is null");
    requireNonNull(elapsed, "elapsed is null");
    requireNonNull(snapshotId, "snapshotId is null");
    requireNonNull(cost, "cost is null");
    requireNonNull(verification, "verification is null");
  }

  /** A result that verified nothing ({@link VerificationFigures#NONE}). */
  public CompactionResult(
      String table,
      String strategy,
      String strategyReason,
      RewriteFigures rewrite,
      LayoutFigures layout,
      CommitFigures commit,
      Duration elapsed,
      OptionalLong snapshotId,
      boolean dryRun,
      RunCost cost) {
    this(
        table,
        strategy,
        strategyReason,
        rewrite,
        layout,
        commit,
        elapsed,
        snapshotId,
        dryRun,
        cost,
        VerificationFigures.NONE);
  }

  /** A result whose cost is not measured yet ({@link RunCost#NONE}). */
  public CompactionResult(
      String table,
      String strategy,
      String strategyReason,
      RewriteFigures rewrite,
      LayoutFigures layout,
      CommitFigures commit,
      Duration elapsed,
      OptionalLong snapshotId,
      boolean dryRun) {
    this(
        table,
        strategy,
        strategyReason,
        rewrite,
        layout,
        commit,
        elapsed,
        snapshotId,
        dryRun,
        RunCost.NONE);
  }

  /** A plan that ran nothing: a dry run, or a plan without groups. */
  public static CompactionResult planOnly(
      String table, String strategy, RewriteFigures planned, Duration elapsed, boolean dryRun) {
    return new CompactionResult(
        table,
        strategy,
        "",
        planned,
        LayoutFigures.NONE,
        CommitFigures.NONE,
        elapsed,
        OptionalLong.empty(),
        dryRun);
  }

  /** This result reported under another strategy name, with the reason it was chosen. */
  public CompactionResult withStrategy(String strategyName, String reason) {
    return new CompactionResult(
        table,
        strategyName,
        reason,
        rewrite,
        layout,
        commit,
        elapsed,
        snapshotId,
        dryRun,
        cost,
        verification);
  }

  /** This result with what the run cost. */
  public CompactionResult withCost(RunCost runCost) {
    return new CompactionResult(
        table,
        strategy,
        strategyReason,
        rewrite,
        layout,
        commit,
        elapsed,
        snapshotId,
        dryRun,
        runCost,
        verification);
  }

  /** This result with how its groups were verified. */
  public CompactionResult withVerification(VerificationFigures figures) {
    return new CompactionResult(
        table,
        strategy,
        strategyReason,
        rewrite,
        layout,
        commit,
        elapsed,
        snapshotId,
        dryRun,
        cost,
        figures);
  }

  /** The verification mode used: {@code counts}, {@code checksum} or {@code off}. */
  public String verificationMode() {
    return verification.mode().displayName();
  }

  /** Rows of the committed groups, each of which passed verification. */
  public long verifiedRows() {
    return verification.verifiedRows();
  }

  /** File groups that failed verification and were not committed. */
  public int verificationFailures() {
    return verification.failedGroups();
  }

  public int fileGroups() {
    return rewrite.fileGroups();
  }

  public int inputFiles() {
    return rewrite.inputFiles();
  }

  public int outputFiles() {
    return rewrite.outputFiles();
  }

  public long inputBytes() {
    return rewrite.inputBytes();
  }

  public long outputBytes() {
    return rewrite.outputBytes();
  }

  public int removedDeleteFiles() {
    return rewrite.removedDeleteFiles();
  }

  public int removedDanglingDeleteFiles() {
    return rewrite.removedDanglingDeleteFiles();
  }

  public long peakMemoryBytes() {
    return rewrite.peakMemoryBytes();
  }

  public long copiedBytes() {
    return rewrite.copiedBytes();
  }

  public long decodedBytes() {
    return rewrite.decodedBytes();
  }

  public Map<String, Integer> fallbackReasons() {
    return rewrite.fallbackReasons();
  }

  public long spilledBytes() {
    return layout.spilledBytes();
  }

  public int spillFiles() {
    return layout.spillFiles();
  }

  public int overlappingFiles() {
    return layout.overlappingFiles();
  }

  public int committedGroups() {
    return commit.committedGroups();
  }

  public int retriedGroups() {
    return commit.retriedGroups();
  }

  public int rebasedGroups() {
    return commit.rebasedGroups();
  }

  public int droppedGroups() {
    return commit.droppedGroups();
  }

  public List<String> dropReasons() {
    return commit.dropReasons();
  }

  public int commits() {
    return commit.commits();
  }

  public int failedCommits() {
    return commit.failedCommits();
  }

  public int failedDataFiles() {
    return commit.failedDataFiles();
  }

  /** File groups a concurrent change conflicted with: retried, re-based or dropped. */
  public int commitConflicts() {
    return commit.commitConflicts();
  }

  /** Commit attempts made again after a conflict. */
  public int commitRetries() {
    return commit.commitRetries();
  }
}
