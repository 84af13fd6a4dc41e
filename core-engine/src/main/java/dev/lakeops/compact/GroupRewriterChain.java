package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.deletes.equality.EqualityDeleteApplyingRewriter;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.GenericGroupRewriter;
import dev.lakeops.rewrite.GroupRewriter;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.arrow.ArrowGroupRewriter;
import dev.lakeops.rewrite.copy.CopyingGroupRewriter;
import dev.lakeops.rewrite.copy.FallbackReasons;
import dev.lakeops.rewrite.sort.SortGroupRewriter;
import dev.lakeops.rewrite.sort.SortLayout;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * The rewriters a file group goes through, the same wherever the group runs (the driver's thread
 * pool or a Spark task): for a sort or z-order layout the external sort, otherwise the decode-free
 * merge (when enabled) falling back to the Arrow or generic decoding path; equality deletes are
 * applied under the budget in front of either. Counts what the stages spilled.
 */
public final class GroupRewriterChain implements GroupRewriter {
  private final GroupRewriter outer;
  private final EqualityDeleteApplyingRewriter equality;

  private GroupRewriterChain(GroupRewriter outer, EqualityDeleteApplyingRewriter equality) {
    this.outer = requireNonNull(outer, "outer is null");
    this.equality = requireNonNull(equality, "equality is null");
  }

  /**
   * @param groupShareBytes the memory each group may hold, out of {@code budget}
   * @param spillDirectory where sorted runs and equality-delete joins spill
   */
  public static GroupRewriterChain assemble(
      Table table,
      Optional<SortLayout> layout,
      RewriteOptions options,
      OutputFileFactory outputFiles,
      MemoryBudget budget,
      long groupShareBytes,
      Path spillDirectory) {
    if (layout.isPresent()) {
      EqualityDeleteApplyingRewriter sorting =
          new EqualityDeleteApplyingRewriter(
              new SortGroupRewriter(
                  table, layout.get(), options.targetFileSizeBytes(), options.rowGroupSizeBytes(), outputFiles, budget,
                  groupShareBytes,
                  spillDirectory),
              table, budget, groupShareBytes, spillDirectory);
      return new GroupRewriterChain(sorting, sorting);
    }
    EqualityDeleteApplyingRewriter decoding =
        new EqualityDeleteApplyingRewriter(
            ArrowGroupRewriter.supports(table)
                ? new ArrowGroupRewriter(table, options.targetFileSizeBytes(), outputFiles, budget, groupShareBytes)
                : new GenericGroupRewriter(table, options.targetFileSizeBytes(), outputFiles, budget, groupShareBytes),
            table, budget, groupShareBytes, spillDirectory);
    if (!options.decodeFreeMerge()) {
      return new GroupRewriterChain(
          group -> decoding.rewrite(group).withFallbackReason(FallbackReasons.TURNED_OFF), decoding);
    }
    return new GroupRewriterChain(
        new CopyingGroupRewriter(
            table, options.targetFileSizeBytes(), outputFiles, budget, groupShareBytes, options.rewriteCodec(),
            decoding),
        decoding);
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group) {
    return outer.rewrite(group);
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
    return equality.delegate() instanceof SortGroupRewriter sorter ? Optional.of(sorter) : Optional.empty();
  }
}
