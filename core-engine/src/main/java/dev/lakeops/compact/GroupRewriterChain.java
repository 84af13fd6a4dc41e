package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.equality.EqualityDeleteApplyingRewriter;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.GenericGroupRewriter;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.arrow.ArrowGroupRewriter;
import dev.lakeops.rewrite.copy.CopyingGroupRewriter;
import dev.lakeops.rewrite.copy.FallbackReasons;
import dev.lakeops.rewrite.sort.SortGroupRewriter;
import dev.lakeops.rewrite.sort.SortLayout;
import dev.lakeops.verify.VerificationMode;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The rewriters a file group goes through, the same wherever the group runs (the driver's thread
 * pool or a Spark task): for a sort or z-order layout the external sort, otherwise the decode-free
 * merge (when enabled) falling back to the Arrow or generic decoding path; equality deletes are
 * applied under the budget in front of either. Counts what the stages spilled.
 *
 * <p>Each group gets one allocator, {@code rewrite-group-N}, a child of the budget limited to the
 * group's share; every stage of the group (equality deletes, then the sort, the decode-free merge
 * or the decoding path) takes a named child of it, so one group never holds more than its share.
 */
public final class GroupRewriterChain implements GroupRewriter {
  private final GroupRewriteStage outer;
  private final EqualityDeleteApplyingRewriter equality;
  private final MemoryBudget budget;
  private final long groupShareBytes;

  private GroupRewriterChain(
      GroupRewriteStage outer,
      EqualityDeleteApplyingRewriter equality,
      MemoryBudget budget,
      long groupShareBytes) {
    this.outer = requireNonNull(outer, "outer is null");
    this.equality = requireNonNull(equality, "equality is null");
    this.budget = requireNonNull(budget, "budget is null");
    this.groupShareBytes = groupShareBytes;
  }

  /**
   * The chain of a request in its strategy's default verification mode ({@code checksum} for a
   * layout, {@code counts} for binpack).
   */
  public static GroupRewriterChain assemble(
      Table table,
      Optional<SortLayout> layout,
      RewriteOptions options,
      OutputFileFactory outputFiles,
      MemoryBudget budget,
      long groupShareBytes,
      Path spillDirectory) {
    return assemble(
        table,
        layout,
        options,
        outputFiles,
        budget,
        groupShareBytes,
        spillDirectory,
        layout.isPresent() ? VerificationMode.CHECKSUM : VerificationMode.COUNTS);
  }

  /**
   * @param groupShareBytes the memory each group may hold, out of {@code budget}
   * @param spillDirectory where sorted runs and equality-delete joins spill
   * @param verification what the stages count for the verifier; in {@code checksum} mode a binpack
   *     group is decoded (the decode-free merge never sees values to hash), recorded with the
   *     fallback reason {@link FallbackReasons#CHECKSUM_VERIFICATION}
   */
  public static GroupRewriterChain assemble(
      Table table,
      Optional<SortLayout> layout,
      RewriteOptions options,
      OutputFileFactory outputFiles,
      MemoryBudget budget,
      long groupShareBytes,
      Path spillDirectory,
      VerificationMode verification) {
    if (layout.isPresent()) {
      EqualityDeleteApplyingRewriter sorting =
          new EqualityDeleteApplyingRewriter(
              new SortGroupRewriter(
                  table,
                  layout.get(),
                  options.targetFileSizeBytes(),
                  options.rowGroupSizeBytes(),
                  outputFiles,
                  spillDirectory,
                  verification),
              table,
              spillDirectory);
      return new GroupRewriterChain(sorting, sorting, budget, groupShareBytes);
    }
    EqualityDeleteApplyingRewriter decoding =
        new EqualityDeleteApplyingRewriter(
            new LazyDecodingStage(
                () ->
                    ArrowGroupRewriter.supports(table)
                        ? new ArrowGroupRewriter(
                            table, options.targetFileSizeBytes(), outputFiles, verification)
                        : new GenericGroupRewriter(
                            table, options.targetFileSizeBytes(), outputFiles, verification)),
            table,
            spillDirectory);
    if (!options.decodeFreeMerge() || verification.checksumsRows()) {
      String reason =
          options.decodeFreeMerge()
              ? FallbackReasons.CHECKSUM_VERIFICATION
              : FallbackReasons.TURNED_OFF;
      return new GroupRewriterChain(
          (group, allocator) -> decoding.rewrite(group, allocator).withFallbackReason(reason),
          decoding,
          budget,
          groupShareBytes);
    }
    return new GroupRewriterChain(
        new CopyingGroupRewriter(
            table,
            options.targetFileSizeBytes(),
            outputFiles,
            groupShareBytes,
            options.rewriteCodec(),
            decoding),
        decoding,
        budget,
        groupShareBytes);
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group) {
    try (BufferAllocator groupAllocator =
        budget.newChild("rewrite-group-" + group.index(), groupShareBytes)) {
      return outer.rewrite(group, groupAllocator);
    }
  }

  /** Bytes the external sort and the equality-delete joins wrote to spill files so far. */
  public long spilledBytes() {
    return sorting().map(SortGroupRewriter::spilledBytes).orElse(0L) + equality.spilledBytes();
  }

  /** Spill files the external sort and the equality-delete joins wrote so far. */
  public int spillFiles() {
    return sorting().map(SortGroupRewriter::spillFiles).orElse(0) + equality.spillFiles();
  }

  private Optional<SortGroupRewriter> sorting() {
    return equality.delegate() instanceof SortGroupRewriter sorter
        ? Optional.of(sorter)
        : Optional.empty();
  }
}
