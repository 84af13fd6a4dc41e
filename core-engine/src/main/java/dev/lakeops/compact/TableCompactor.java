package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.MemoryBudgetExceededException;
import dev.lakeops.commit.CommitRetryPolicy;
import dev.lakeops.commit.CommitSummary;
import dev.lakeops.commit.DroppedGroup;
import dev.lakeops.commit.FailedGroup;
import dev.lakeops.commit.RewriteCommitManager;
import dev.lakeops.commit.RewriteCommitter;
import dev.lakeops.cost.ObjectRequestMeter;
import dev.lakeops.cost.RequestWindow;
import dev.lakeops.deletes.DanglingDeleteRemover;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.RenewalGuard;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.plan.BinPackPlanner;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.plan.SortPlanner;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.OutputFileNames;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.sort.OutputOverlap;
import dev.lakeops.rewrite.sort.SortLayout;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;

/**
 * Compacts an Iceberg table with a concrete strategy (binpack, sort or zorder): plans file groups,
 * rewrites them under the request's memory budget and commits the result. Hosts (CLI, Spark, Trino,
 * Flink) reach it through {@code dev.lakeops.advise.AdvisedCompactor}, which resolves {@code auto}
 * first.
 */
public final class TableCompactor {
  private final CompactionListener listener;
  private final TableLocks locks;
  private final GroupExecution execution;

  public TableCompactor() {
    this(CompactionListener.NONE);
  }

  public TableCompactor(CompactionListener listener) {
    this(listener, LockOptions.defaults());
  }

  public TableCompactor(CompactionListener listener, LockOptions lockOptions) {
    this(listener, lockOptions, GroupExecution.LOCAL);
  }

  /** A compactor that hands file groups to {@code execution} (e.g. Spark executors) to rewrite. */
  public TableCompactor(
      CompactionListener listener, LockOptions lockOptions, GroupExecution execution) {
    this.listener = requireNonNull(listener, "listener is null");
    this.locks = new TableLocks(requireNonNull(lockOptions, "lockOptions is null"));
    this.execution = requireNonNull(execution, "execution is null");
  }

  /**
   * Compacts {@code table}. Except for a dry run, holds the table's compaction lock (see {@link
   * TableLocks}) from planning through the commit, so the CLI, the engines' procedures and the
   * Flink hook never compact one table at once.
   *
   * @throws dev.lakeops.lock.TableLockedException when another compactor holds the lock beyond the
   *     lock wait
   */
  public CompactionResult compact(Table table, CompactionRequest request) {
    return compact(table, request, OutputFileNames.newOperationId());
  }

  /**
   * Compacts {@code table} as {@link #compact(Table, CompactionRequest)} does, with {@code
   * operationId} in every output file name (a caller that records the id can find the files of a
   * run that died before its commit). The result's cost covers every object request the process
   * made while it ran (see {@link ObjectRequestMeter}).
   */
  public CompactionResult compact(Table table, CompactionRequest request, String operationId) {
    RequestWindow window = ObjectRequestMeter.process().open();
    try {
      return compactMeasured(table, request, operationId).withCost(window.close());
    } finally {
      window.close();
    }
  }

  private CompactionResult compactMeasured(
      Table table, CompactionRequest request, String operationId) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    requireNonNull(operationId, "operationId is null");
    if (request.strategy() == Strategy.AUTO) {
      throw new IllegalArgumentException(
          "Strategy 'auto' must be resolved before compacting "
              + table.name()
              + ": compact through dev.lakeops.advise.AdvisedCompactor");
    }
    // every argument is checked before the lock: a refused run touches nothing
    CheckedCompaction checked = CheckedCompaction.of(table, request);
    if (request.dryRun()) {
      return planRewriteAndCommit(table, request, checked, RenewalGuard.NONE, operationId);
    }
    try (HeldTableLock lock = locks.acquire(table)) {
      return planRewriteAndCommit(table, request, checked, lock, operationId);
    }
  }

  private CompactionResult planRewriteAndCommit(
      Table table,
      CompactionRequest request,
      CheckedCompaction checked,
      RenewalGuard renewals,
      String operationId) {
    long started = System.nanoTime();
    RewriteOptions options = checked.options();
    Optional<SortLayout> layout = checked.layout();
    Expression filter = checked.filter();
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return emptyResult(table, request, started)
          .withVerification(VerificationFigures.none(checked.verification()));
    }
    RewritePlan plan =
        layout.isPresent()
            ? new SortPlanner(
                    table,
                    options,
                    layout.get().recordedSortOrderId(),
                    layout.get().summarizedFieldIds(table.schema()))
                .plan(snapshot, filter)
            : new BinPackPlanner(table, options).plan(snapshot, filter);
    listener.planned(plan);
    if (request.dryRun() || plan.isEmpty()) {
      return CompactionResult.planOnly(
              table.name(),
              request.strategy().displayName(),
              RewriteFigures.planned(plan.groups().size(), plan.fileCount(), plan.inputBytes()),
              elapsedSince(started),
              request.dryRun())
          .withVerification(VerificationFigures.none(checked.verification()));
    }
    int concurrency =
        Math.max(1, Math.min(options.maxConcurrentFileGroupRewrites(), plan.groups().size()));
    RewriteCommitManager commits =
        new RewriteCommitManager(
            new RewriteCommitter(table, plan, CommitRetryPolicy.DEFAULT, renewals),
            table.io(),
            options,
            plan.groups().size());
    PlannedRewrite planned =
        new PlannedRewrite(table, plan, request, options, layout, operationId, concurrency);
    VerifiedCommits verified =
        new VerifiedCommits(
            new GroupVerifier(
                checked.verification(),
                checked.verification().countsRows()
                    ? InputColumnCounts.readInBackground(
                        table, plan.startingSnapshotId(), plan.groups())
                    : () -> InputColumnCounts.NONE),
            commits,
            table.io());
    ExecutionFigures executed;
    try (GroupRewriting rewriting = execution.start(planned)) {
      runGroups(rewriting, concurrency, table, plan, request, commits, verified);
      executed = rewriting.figures();
    }
    CommitSummary summary = commits.finish();
    List<RewrittenGroup> committed = summary.committedGroups();
    int danglingRemoved =
        options.removeDanglingDeletes() && !committed.isEmpty()
            ? renewals.withoutRenewal(() -> DanglingDeleteRemover.removeAfterRewrite(table))
            : 0;
    RewriteFigures figures =
        new RewriteFigures(
            plan.groups().size(),
            committed.stream().mapToInt(group -> group.group().fileCount()).sum(),
            committed.stream().mapToInt(group -> group.addedFiles().size()).sum(),
            committed.stream().mapToLong(group -> group.group().inputBytes()).sum(),
            committed.stream().mapToLong(RewrittenGroup::outputBytes).sum(),
            summary.removedDeleteFiles() + danglingRemoved,
            danglingRemoved,
            executed.peakMemoryBytes(),
            committed.stream().mapToLong(RewrittenGroup::copiedBytes).sum(),
            committed.stream().mapToLong(RewrittenGroup::decodedBytes).sum(),
            fallbackReasons(committed));
    LayoutFigures layoutFigures =
        new LayoutFigures(
            executed.spilledBytes(),
            executed.spillFiles(),
            layout.map(sortLayout -> overlappingFiles(table, sortLayout, committed)).orElse(0));
    CommitFigures commitFigures =
        new CommitFigures(
            committed.size(),
            summary.retriedGroups(),
            summary.rebasedGroups(),
            summary.droppedGroups().size() + summary.failedGroups().size(),
            Stream.concat(
                    summary.droppedGroups().stream().map(DroppedGroup::describe),
                    summary.failedGroups().stream().map(FailedGroup::describe))
                .toList(),
            summary.snapshotIds().size(),
            summary.failedCommits(),
            summary.failedDataFiles(),
            summary.conflictedGroups(),
            summary.retries());
    return new CompactionResult(
            table.name(),
            request.strategy().displayName(),
            "",
            figures,
            layoutFigures,
            commitFigures,
            elapsedSince(started),
            summary.lastSnapshotId(),
            false)
        .withVerification(
            new VerificationFigures(
                checked.verification(),
                checked.verification().countsRows()
                    ? committed.stream().mapToLong(RewrittenGroup::outputRecords).sum()
                    : 0,
                verified.failedGroups()));
  }

  /** Reason → number of groups decoded for it, most frequent first. */
  private static Map<String, Integer> fallbackReasons(List<RewrittenGroup> groups) {
    Map<String, Integer> counts = new TreeMap<>();
    for (RewrittenGroup group : groups) {
      if (!group.fallbackReason().isEmpty()) {
        counts.merge(group.fallbackReason(), 1, Integer::sum);
      }
    }
    Map<String, Integer> ordered = new LinkedHashMap<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
        .forEach(entry -> ordered.put(entry.getKey(), entry.getValue()));
    return ordered;
  }

  private static int overlappingFiles(
      Table table, SortLayout layout, List<RewrittenGroup> rewritten) {
    Map<String, List<DataFile>> byPartition = new LinkedHashMap<>();
    for (RewrittenGroup group : rewritten) {
      byPartition
          .computeIfAbsent(
              group.group().specId() + "/" + group.group().partitionPath(),
              key -> new java.util.ArrayList<>())
          .addAll(group.addedFiles());
    }
    return OutputOverlap.overlappingFiles(
        table.schema(), layout.leadingFieldId(), List.copyOf(byPartition.values()));
  }

  private static CompactionResult emptyResult(
      Table table, CompactionRequest request, long started) {
    return CompactionResult.planOnly(
        table.name(),
        request.strategy().displayName(),
        RewriteFigures.planned(0, 0, 0),
        elapsedSince(started),
        request.dryRun());
  }

  private static Duration elapsedSince(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** Rewrites every group, handing each to {@code commits} as it finishes. */
  private void runGroups(
      GroupRewriter rewriter,
      int concurrency,
      Table table,
      RewritePlan plan,
      CompactionRequest request,
      RewriteCommitManager commits,
      VerifiedCommits verified) {
    try {
      new GroupRunner(rewriter, concurrency, table.io(), listener)
          .run(plan.groups(), verified::accept, commits::rewriteFailed);
    } catch (RuntimeException e) {
      commits.abort(e);
      throw translateOutOfMemory(e, request);
    }
  }

  private static RuntimeException translateOutOfMemory(
      RuntimeException failure, CompactionRequest request) {
    if (!(failure instanceof OutOfMemoryException e)) {
      return failure;
    }
    return new MemoryBudgetExceededException(
        "A file group needed more memory than its share of the "
            + request.memoryBudget()
            + " budget; the table is unchanged — raise {memory_budget} or lower "
            + RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES,
        e);
  }
}
