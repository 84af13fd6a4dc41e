package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.advise.AutoStrategy;
import dev.lakeops.advise.AutoStrategyChoice;
import dev.lakeops.commit.RewriteCommitter;
import dev.lakeops.commit.CommitSummary;
import dev.lakeops.commit.DroppedGroup;
import dev.lakeops.commit.RewriteCommitManager;
import dev.lakeops.deletes.DanglingDeleteRemover;
import dev.lakeops.deletes.equality.EqualityDeleteApplyingRewriter;
import dev.lakeops.expression.WhereParser;
import dev.lakeops.lock.HeldTableLock;
import dev.lakeops.lock.LockOptions;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.BinPackPlanner;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.plan.RewritePlan;
import dev.lakeops.rewrite.GenericGroupRewriter;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.arrow.ArrowGroupRewriter;
import dev.lakeops.rewrite.copy.CopyingGroupRewriter;
import dev.lakeops.rewrite.sort.OutputOverlap;
import dev.lakeops.rewrite.sort.SortGroupRewriter;
import dev.lakeops.rewrite.sort.SortLayout;
import dev.lakeops.plan.SortPlanner;
import org.apache.arrow.memory.OutOfMemoryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The one entry point every host (CLI, Spark, Trino, Flink) calls to compact an Iceberg table.
 * Plans file groups, rewrites them under the request's memory budget and commits the result.
 */
public final class TableCompactor {
  private final CompactionListener listener;
  private final TableLocks locks;

  public TableCompactor() {
    this(CompactionListener.NONE);
  }

  public TableCompactor(CompactionListener listener) {
    this(listener, LockOptions.defaults());
  }

  public TableCompactor(CompactionListener listener, LockOptions lockOptions) {
    this.listener = requireNonNull(listener, "listener is null");
    this.locks = new TableLocks(requireNonNull(lockOptions, "lockOptions is null"));
  }

  /**
   * Compacts {@code table}. Except for a dry run, holds the table's compaction lock (see {@link
   * TableLocks}) from planning through the commit, so the CLI, the engines' procedures and the
   * Flink hook never compact one table at once.
   *
   * @throws dev.lakeops.lock.TableLockedException when another compactor holds the lock beyond
   *     the lock wait
   */
  public CompactionResult compact(Table table, CompactionRequest request) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    if (request.strategy() == Strategy.AUTO) {
      AutoStrategyChoice choice = AutoStrategy.choose(table, request);
      return compact(table, choice.request()).withStrategy(choice.strategyName(), choice.reason());
    }
    if (request.dryRun()) {
      return planRewriteAndCommit(table, request);
    }
    try (HeldTableLock lock = locks.acquire(table)) {
      return planRewriteAndCommit(table, request);
    }
  }

  private CompactionResult planRewriteAndCommit(Table table, CompactionRequest request) {
    long started = System.nanoTime();
    RewriteOptions options = RewriteOptions.parse(table, request.options());
    Optional<SortLayout> layout = layoutFor(table, request);
    Expression filter = WhereParser.parse(request.where().orElse(null));
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return emptyResult(table, request, started);
    }
    RewritePlan plan =
        layout.isPresent()
            ? new SortPlanner(table, options, layout.get().recordedSortOrderId()).plan(snapshot, filter)
            : new BinPackPlanner(table, options).plan(snapshot, filter);
    listener.planned(plan);
    if (request.dryRun() || plan.isEmpty()) {
      return CompactionResult.planOnly(
          table.name(), request.strategy().displayName(),
          RewriteFigures.planned(plan.groups().size(), plan.fileCount(), plan.inputBytes()),
          elapsedSince(started), request.dryRun());
    }
    OutputFileFactory outputFiles =
        OutputFileFactory.builderFor(table, 1, System.currentTimeMillis())
            .format(FileFormat.PARQUET)
            .operationId("lakeops-" + UUID.randomUUID())
            .build();
    int concurrency = Math.max(1, Math.min(options.maxConcurrentFileGroupRewrites(), plan.groups().size()));
    RewriteCommitManager commits =
        new RewriteCommitManager(new RewriteCommitter(table, plan), table.io(), options, plan.groups().size());
    List<RewrittenGroup> rewritten;
    long peakMemory;
    Rewriters rewriters;
    try (MemoryBudget budget = new MemoryBudget(request.memoryBudget())) {
      rewriters = rewriterFor(table, request, layout, options, outputFiles, budget, concurrency);
      rewritten = runGroups(rewriters.outer(), concurrency, table, plan, request, commits);
      peakMemory = budget.peakBytes();
    }
    EqualityDeleteApplyingRewriter equality = rewriters.equality();
    SortGroupRewriter sorting = equality.delegate() instanceof SortGroupRewriter sorter ? sorter : null;
    CommitSummary summary = commits.finish();
    List<RewrittenGroup> committed = summary.committedGroups();
    int danglingRemoved =
        options.removeDanglingDeletes() && !committed.isEmpty() ? DanglingDeleteRemover.removeAfterRewrite(table) : 0;
    RewriteFigures figures =
        new RewriteFigures(
            plan.groups().size(),
            committed.stream().mapToInt(group -> group.group().fileCount()).sum(),
            committed.stream().mapToInt(group -> group.addedFiles().size()).sum(),
            committed.stream().mapToLong(group -> group.group().inputBytes()).sum(),
            committed.stream().mapToLong(RewrittenGroup::outputBytes).sum(),
            summary.removedDeleteFiles() + danglingRemoved,
            danglingRemoved,
            peakMemory,
            committed.stream().mapToLong(RewrittenGroup::copiedBytes).sum(),
            committed.stream().mapToLong(RewrittenGroup::decodedBytes).sum());
    LayoutFigures layoutFigures =
        new LayoutFigures(
            (sorting == null ? 0 : sorting.spilledBytes()) + equality.spilledBytes(),
            (sorting == null ? 0 : sorting.spillFiles()) + equality.spillFiles(),
            layout.map(sortLayout -> overlappingFiles(table, sortLayout, committed)).orElse(0));
    CommitFigures commitFigures =
        new CommitFigures(
            committed.size(),
            summary.retriedGroups(),
            summary.rebasedGroups(),
            summary.droppedGroups().size(),
            summary.droppedGroups().stream().map(DroppedGroup::describe).toList(),
            summary.snapshotIds().size(),
            summary.failedCommits());
    return new CompactionResult(
        table.name(), request.strategy().displayName(), "", figures, layoutFigures, commitFigures,
        elapsedSince(started), summary.lastSnapshotId(), false);
  }

  /** The row layout of a sort or zorder request; empty for binpack. */
  private static Optional<SortLayout> layoutFor(Table table, CompactionRequest request) {
    return switch (request.strategy()) {
      case BINPACK -> Optional.empty();
      case SORT -> Optional.of(SortLayout.sortOrder(table, request.sortOrder()));
      case ZORDER -> Optional.of(SortLayout.zorder(table, request.zorderColumns()));
      case AUTO -> throw new IllegalStateException("Strategy 'auto' is resolved by AutoStrategy before planning");
    };
  }

  private static int overlappingFiles(Table table, SortLayout layout, List<RewrittenGroup> rewritten) {
    Map<String, List<DataFile>> byPartition = new LinkedHashMap<>();
    for (RewrittenGroup group : rewritten) {
      byPartition
          .computeIfAbsent(group.group().specId() + "/" + group.group().partitionPath(), key -> new java.util.ArrayList<>())
          .addAll(group.addedFiles());
    }
    return OutputOverlap.overlappingFiles(table.schema(), layout.leadingFieldId(), List.copyOf(byPartition.values()));
  }

  private static CompactionResult emptyResult(Table table, CompactionRequest request, long started) {
    return CompactionResult.planOnly(
        table.name(), request.strategy().displayName(), RewriteFigures.planned(0, 0, 0),
        elapsedSince(started), request.dryRun());
  }

  private static Duration elapsedSince(long startNanos) {
    return Duration.ofNanos(System.nanoTime() - startNanos);
  }

  /** The rewriter groups are handed to, and the equality-delete stage inside it (for its counters). */
  private record Rewriters(GroupRewriter outer, EqualityDeleteApplyingRewriter equality) {}

  private static Rewriters rewriterFor(
      Table table,
      CompactionRequest request,
      Optional<SortLayout> layout,
      RewriteOptions options,
      OutputFileFactory outputFiles,
      MemoryBudget budget,
      int concurrency) {
    long groupShare = budget.limit().bytes() / concurrency;
    if (layout.isPresent()) {
      EqualityDeleteApplyingRewriter sorting =
          new EqualityDeleteApplyingRewriter(
              new SortGroupRewriter(
                  table, layout.get(), options.targetFileSizeBytes(), options.rowGroupSizeBytes(), outputFiles,
                  budget, groupShare,
                  request.spillDirectory()),
              table, budget, groupShare, request.spillDirectory());
      return new Rewriters(sorting, sorting);
    }
    EqualityDeleteApplyingRewriter decoding =
        new EqualityDeleteApplyingRewriter(
            ArrowGroupRewriter.supports(table)
                ? new ArrowGroupRewriter(table, options.targetFileSizeBytes(), outputFiles, budget, groupShare)
                : new GenericGroupRewriter(table, options.targetFileSizeBytes(), outputFiles, budget, groupShare),
            table, budget, groupShare, request.spillDirectory());
    if (!options.decodeFreeMerge()) {
      return new Rewriters(decoding, decoding);
    }
    return new Rewriters(
        new CopyingGroupRewriter(table, options.targetFileSizeBytes(), outputFiles, budget, groupShare, decoding),
        decoding);
  }

  /** Rewrites every group, handing each to {@code commits} as it finishes; the list is all of them. */
  private List<RewrittenGroup> runGroups(
      GroupRewriter rewriter,
      int concurrency,
      Table table,
      RewritePlan plan,
      CompactionRequest request,
      RewriteCommitManager commits) {
    List<RewrittenGroup> rewritten = new ArrayList<>();
    try {
      new GroupRunner(rewriter, concurrency, table.io(), listener)
          .run(plan.groups(), group -> {
            rewritten.add(group);
            commits.accept(group);
          });
      return rewritten;
    } catch (RuntimeException e) {
      commits.abort(e);
      throw translateOutOfMemory(e, request);
    }
  }

  private static RuntimeException translateOutOfMemory(RuntimeException failure, CompactionRequest request) {
    if (!(failure instanceof OutOfMemoryException e)) {
      return failure;
    }
    return new IllegalStateException(
        "A file group needed more memory than its share of the " + request.memoryBudget()
            + " budget; the table is unchanged — raise --memory or lower "
            + RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES,
        e);
  }
}
